package adminapi

// BrokerLiveness is what the leader's liveness tracker knows of one
// registered broker (GET /v1/brokers, a list), for the status page.
type BrokerLiveness struct {
	Cluster string `json:"cluster"`
	Addr    string `json:"addr"`
	// LastHeartbeatMillis is how long ago the broker was last heard from
	// by any member.
	LastHeartbeatMillis int64 `json:"lastHeartbeatMillis"`
	// ExpiresInMillis is how long until the broker is expired if it stays
	// silent; it may be negative between scans.
	ExpiresInMillis int64 `json:"expiresInMillis"`
}
