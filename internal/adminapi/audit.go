package adminapi

// AuditRecord is one record of the replicated audit trail (GET /v1/audit):
// one change, as every member holds it.
type AuditRecord struct {
	// Index is the Raft log index of the change.
	Index uint64 `json:"index"`
	// Time is the wall clock of the member that took the change, RFC 3339
	// in UTC.
	Time string `json:"time"`
	// Who is an ACL access key, "admin-token", "anonymous", or "raftns"
	// for a change the leader decided itself.
	Who string `json:"who"`
	// From is the caller's address (the PROXY-protocol address when
	// present); Via the member that took the change.
	From    string `json:"from,omitempty"`
	Via     string `json:"via"`
	Kind    string `json:"kind"`
	Cluster string `json:"cluster,omitempty"`
	Broker  string `json:"broker,omitempty"`
	Topic   string `json:"topic,omitempty"`
	Detail  string `json:"detail,omitempty"`
	Outcome string `json:"outcome"`
}

// AuditPage answers GET /v1/audit: the records in ascending index order,
// whether more match beyond them, the cursor to read them (pass it as
// before= when reading backward, the default, or after= when reading
// forward), and the trail's size.
type AuditPage struct {
	Records []AuditRecord `json:"records"`
	More    bool          `json:"more"`
	Next    uint64        `json:"next,omitempty"`
	Total   int           `json:"total"`
	// LastIndex is the index of the newest record of the trail, matching
	// or not (0 when it is empty): a follower of the trail reads after it.
	LastIndex uint64 `json:"lastIndex"`
}
