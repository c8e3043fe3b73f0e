package adminapi

// WatchChange is one change GET /v1/watch reports: the Raft index that made
// it, the kinds of state it touched (route, broker, kv, member, audit,
// controller), the topics and clusters it touched when it names them.
type WatchChange struct {
	Index     uint64   `json:"index"`
	Kinds     []string `json:"kinds"`
	Topics    []string `json:"topics,omitempty"`
	AllTopics bool     `json:"allTopics,omitempty"`
	Clusters  []string `json:"clusters,omitempty"`
}

// WatchResult answers a blocking GET /v1/watch: the index to pass as
// index= next time, the matching changes after the index asked about, and
// Missed when changes may have been dropped (read the state again).
type WatchResult struct {
	Index   uint64        `json:"index"`
	Changes []WatchChange `json:"changes"`
	Missed  bool          `json:"missed,omitempty"`
}
