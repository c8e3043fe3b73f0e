package state

// The payloads of the commands that change the tables; package fsm
// numbers, encodes and dispatches them (fsm/commands.go).

// RegisterBroker is REGISTER_BROKER with its body decoded. It is proposed only
// when applying it would change the state (see FSM.WouldChange); otherwise the
// registration is a heartbeat that writes nothing.
type RegisterBroker struct {
	ClusterName  string
	BrokerAddr   string
	BrokerName   string
	BrokerID     int64
	HaServerAddr string
	// HeartbeatTimeoutMillis is the broker's own expiry time; 0 means none
	// was sent and the leader's configured broker expiry applies.
	HeartbeatTimeoutMillis int64
	// HasEnableActingMaster is false for brokers older than 5.0, which do not
	// send the header; such a broker is an "old version broker".
	HasEnableActingMaster bool
	EnableActingMaster    bool
	ZoneName              string
	DataVersion           DataVersion
	// TopicConfigs in the order the broker sent them.
	TopicConfigs []TopicConfig
	// HasFilterServerList is false on the legacy (version < 37) path, which
	// leaves the filter-server table untouched.
	HasFilterServerList bool
	FilterServerList    []string
	MappingInfos        []TopicQueueMappingInfo
	// StampMillis is the proposer's wall clock, for display only.
	StampMillis int64
	// Continuation marks a later part of a registration that the leader
	// split across several entries (see SplitRegistration): its topics are
	// written even though the first part already stored the DataVersion.
	Continuation bool
	// DeleteUnlistedTopics is deleteTopicWithBrokerRegistration, set by the
	// member that received the registration: the queue data of this broker
	// name for topics the registration does not list is removed (master or
	// prime slave, no static-topic mappings). The parts of a split
	// registration never carry it, since no single part lists every topic:
	// DropUnlistedTopics entries follow them.
	DeleteUnlistedTopics bool
}

// Key returns the broker's live-table key.
func (c *RegisterBroker) Key() BrokerKey {
	return BrokerKey{Cluster: c.ClusterName, Addr: c.BrokerAddr}
}

// RegisterResult is what REGISTER_BROKER answers: the master's addresses for a
// slave whose master is registered, and the ORDER_TOPIC_CONFIG KV table when
// that namespace exists.
type RegisterResult struct {
	MasterAddr          string
	HaServerAddr        string
	HasOrderTopicConfig bool
	OrderTopicConfig    map[string]string
}

// UnregisterBroker is UNREGISTER_BROKER: it removes a broker address from its
// group (5.x semantics: every id with that address).
type UnregisterBroker struct {
	ClusterName string
	BrokerAddr  string
	BrokerName  string
	BrokerID    int64
}

// ExpiredBroker names one broker to expire and the registration epoch the
// leader saw when it decided. The FSM ignores it if the epoch moved on.
type ExpiredBroker struct {
	Key      BrokerKey
	RegEpoch uint64
}

// ExpireBrokers removes brokers the leader has not heard from. It is proposed
// by the leader itself, never forwarded.
type ExpireBrokers struct {
	Brokers []ExpiredBroker
	// Reason is "timeout" or "connection-closed", for logs.
	Reason string
}

// WipeWritePerm is WIPE_WRITE_PERM_OF_BROKER; it answers a count.
type WipeWritePerm struct{ BrokerName string }

// AddWritePerm is ADD_WRITE_PERM_OF_BROKER; it answers a count.
type AddWritePerm struct{ BrokerName string }

// WritePermResult is the answer of WipeWritePerm and AddWritePerm: the number
// of topics that have queue data for the broker.
type WritePermResult struct{ TopicCount int }

// DeleteTopic is DELETE_TOPIC_IN_NAMESRV. A non-empty ClusterName removes only
// that cluster's queue data.
type DeleteTopic struct {
	Topic       string
	ClusterName string
}

// RegisterTopic is REGISTER_TOPIC_IN_NAMESRV (5.x).
type RegisterTopic struct {
	Topic      string
	QueueDatas []QueueData
}

// PutKV is PUT_KV_CONFIG. HasValue false (a request without value) creates the
// namespace and removes the key, which is what the reference ends up with.
type PutKV struct {
	Namespace string
	Key       string
	Value     string
	HasValue  bool
}

// DeleteKV is DELETE_KV_CONFIG. The namespace stays even when emptied.
type DeleteKV struct {
	Namespace string
	Key       string
}

// SetMember adds or updates a member in the replicated member directory.
type SetMember struct{ Member Member }

// RemoveMember removes a member from the directory.
type RemoveMember struct{ ID string }

// AckMinBrokerIDNotice clears the pending notice of BrokerName if it is
// still the one recorded at Index. Only the leader proposes it, right
// before it sends the notice (see MinBrokerIDNotice).
type AckMinBrokerIDNotice struct {
	BrokerName string
	Index      uint64
}

// AckResult answers AckMinBrokerIDNotice: Cleared is true for exactly one
// ack of each notice, and only its proposer may send the notice.
type AckResult struct{ Cleared bool }
