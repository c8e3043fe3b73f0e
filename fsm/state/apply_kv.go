package state

// ApplyPutKV ports KVConfigManager.putKVConfig. Without a value the
// namespace is created and the key removed: the reference stores a null,
// which reads as missing and is dropped when the file is written.
func (s *State) ApplyPutKV(c *PutKV) bool {
	_, nsExisted := s.kv()[c.Namespace]
	cur, had := s.namespace(c.Namespace)[c.Key]
	if c.HasValue && had && cur == c.Value {
		return false
	}
	if !c.HasValue && nsExisted && !had {
		return false
	}
	t := writable(s, s.kv(), c.Namespace, true)
	if c.HasValue {
		t.m[c.Key] = c.Value
	} else {
		delete(t.m, c.Key)
	}
	return true
}

// ApplyDeleteKV ports KVConfigManager.deleteKVConfig: the key goes, an
// emptied namespace stays.
func (s *State) ApplyDeleteKV(c *DeleteKV) bool {
	if _, ok := s.namespace(c.Namespace)[c.Key]; !ok {
		return false
	}
	delete(writable(s, s.kv(), c.Namespace, false).m, c.Key)
	return true
}
