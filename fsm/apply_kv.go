package fsm

// applyPutKV ports KVConfigManager.putKVConfig. Without a value the
// namespace is created and the key removed: the reference stores a null,
// which reads as missing and is dropped when the file is written.
func (s *state) applyPutKV(c *PutKV) bool {
	_, nsExisted := s.kv[c.Namespace]
	cur, had := s.namespace(c.Namespace)[c.Key]
	if c.HasValue && had && cur == c.Value {
		return false
	}
	if !c.HasValue && nsExisted && !had {
		return false
	}
	t := writable(s, s.kv, c.Namespace, true)
	if c.HasValue {
		t.m[c.Key] = c.Value
	} else {
		delete(t.m, c.Key)
	}
	return true
}

// applyDeleteKV ports KVConfigManager.deleteKVConfig: the key goes, an
// emptied namespace stays.
func (s *state) applyDeleteKV(c *DeleteKV) bool {
	if _, ok := s.namespace(c.Namespace)[c.Key]; !ok {
		return false
	}
	delete(writable(s, s.kv, c.Namespace, false).m, c.Key)
	return true
}
