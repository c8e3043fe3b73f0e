package state

// This file holds the value types of the route tables. They mirror the Java
// classes of the reference NameServer (RouteInfoManager and the protocol
// bodies) closely enough that protocol/body can encode them byte for byte.

// Permission bits of QueueData.Perm (Java PermName).
const (
	PermPriority int32 = 8
	PermRead     int32 = 4
	PermWrite    int32 = 2
	PermInherit  int32 = 1
)

// Topic system flag bits (Java TopicSysFlag).
const (
	FlagUnit    int32 = 1
	FlagUnitSub int32 = 2
)

// MasterID is the broker id of a master (Java MixAll.MASTER_ID).
const MasterID int64 = 0

// NamespaceOrderTopicConfig is the KV namespace that holds orderTopicConf
// strings, keyed by topic (Java NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG).
const NamespaceOrderTopicConfig = "ORDER_TOPIC_CONFIG"

// DataVersion is a broker's topic-config version. It is stored exactly as the
// broker sent it and returned unchanged by QUERY_DATA_VERSION.
type DataVersion struct {
	Timestamp    int64
	Counter      int64
	StateVersion int64
}

// Equal reports whether two versions are the same for change detection
// (5.x semantics: stateVersion, timestamp and counter).
func (d DataVersion) Equal(o DataVersion) bool { return d == o }

// TopicConfig is the part of a broker's topic configuration the name server
// uses. TopicFilterType, order and attributes are not kept.
type TopicConfig struct {
	TopicName      string
	ReadQueueNums  int32
	WriteQueueNums int32
	Perm           int32
	TopicSysFlag   int32
}

// QueueData is one broker group's queue layout for one topic.
type QueueData struct {
	BrokerName     string
	ReadQueueNums  int32
	WriteQueueNums int32
	Perm           int32
	TopicSysFlag   int32
}

// BrokerData is one broker group: its cluster, name and id -> address map.
type BrokerData struct {
	Cluster            string
	BrokerName         string
	BrokerAddrs        map[int64]string
	EnableActingMaster bool
	ZoneName           string // empty means absent
}

// TopicQueueMappingInfo is a static-topic mapping a 5.x broker registers
// (Java TopicQueueMappingInfo). CurrIDMap maps logical to physical queue ids.
type TopicQueueMappingInfo struct {
	Topic       string
	Scope       string
	TotalQueues int32
	Bname       string
	Epoch       int64
	Dirty       bool
	CurrIDMap   map[int32]int32
}

// TopicRouteData is the answer to GET_ROUTEINFO_BY_TOPIC. QueueDatas and
// BrokerDatas are sorted by broker name; FilterServerTable is never nil.
type TopicRouteData struct {
	OrderTopicConf            string // empty means absent
	QueueDatas                []QueueData
	BrokerDatas               []BrokerData
	FilterServerTable         map[string][]string
	TopicQueueMappingByBroker map[string]TopicQueueMappingInfo // nil means absent
}

// ClusterInfo is the answer to GET_BROKER_CLUSTER_INFO.
type ClusterInfo struct {
	BrokerAddrTable  map[string]BrokerData // brokerName -> data
	ClusterAddrTable map[string][]string   // clusterName -> sorted broker names
}

// TopicList is the body of the topic list answers. BrokerAddr is set only by
// GET_SYSTEM_TOPIC_LIST_FROM_NS.
type TopicList struct {
	Topics     []string
	BrokerAddr string // empty means absent
}

// BrokerMemberGroup is the answer to GET_BROKER_MEMBER_GROUP.
type BrokerMemberGroup struct {
	Cluster     string
	BrokerName  string
	BrokerAddrs map[int64]string
}

// BrokerKey identifies a live broker, as in 5.x (cluster name, address).
type BrokerKey struct {
	Cluster string
	Addr    string
}

// BrokerRegistration is the replicated part of a registered broker's live
// entry. Liveness (the last time it was heard from) is not replicated.
type BrokerRegistration struct {
	Key          BrokerKey
	BrokerName   string
	BrokerID     int64
	HaServerAddr string
	DataVersion  DataVersion
	// HeartbeatTimeoutMillis is the broker's own expiry time; 0 when it sent
	// none, and the leader's configured broker expiry applies.
	HeartbeatTimeoutMillis int64
	// RegEpoch is the Raft index of the entry that last registered or
	// changed this broker. Expiries are conditional on it.
	RegEpoch uint64
	// RegisteredAtMillis is the leader's wall clock when that entry was
	// proposed; it is for display only.
	RegisteredAtMillis int64
}

// Member is one RaftNS member in the replicated member directory.
type Member struct {
	ID          string
	ClientAddr  string // RocketMQ remoting address
	ClusterAddr string // Raft and internal RPC address
	HTTPAddr    string // admin HTTP address, may be empty
	// Zone is the member's zone label (raftns --zone), empty when it has
	// none. Omitted when empty, so a directory without zones encodes as
	// releases before zones wrote it.
	Zone string `codec:",omitempty"`
}
