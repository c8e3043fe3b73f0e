package fsm

import "github.com/raftns/raftns/internal/feature"

// CommandType identifies a state change in the Raft log. The values live in
// the Raft log and in snapshots of every member: they are only ever added,
// never renumbered or reused. A retired value stays declared, marked
// Deprecated.
type CommandType uint8

// IgnoreUnknownTypeFlag marks a command that an older member may skip when it
// does not know the type. It is only for additive commands whose absence
// cannot make replicas diverge in anything a client can observe.
const IgnoreUnknownTypeFlag CommandType = 0x80

// The command vocabulary.
const (
	RegisterBrokerType   CommandType = 1
	UnregisterBrokerType CommandType = 2
	ExpireBrokersType    CommandType = 3
	WipeWritePermType    CommandType = 4
	AddWritePermType     CommandType = 5
	DeleteTopicType      CommandType = 6
	RegisterTopicType    CommandType = 7
	PutKVType            CommandType = 8
	DeleteKVType         CommandType = 9
	SetMemberType        CommandType = 10
	RemoveMemberType     CommandType = 11
	// AckMinBrokerIDNoticeType is proposed with IgnoreUnknownTypeFlag: a
	// member that predates it records no notices either.
	AckMinBrokerIDNoticeType CommandType = 12
	// SetClusterVersionType raises the cluster version (cluster_version.go);
	// the leader proposes it only when every member runs that release.
	SetClusterVersionType CommandType = 13
	// SetMemberDrainingType starts or ends the drain of a member being
	// removed (member_draining.go).
	SetMemberDrainingType CommandType = 15
	// RecordAuditType (16) and the audit envelope (17) are declared in
	// audit.go.
	// DropUnlistedTopicsType follows the parts of a split registration
	// that deletes unlisted topics (drop_unlisted.go).
	DropUnlistedTopicsType CommandType = 18
	// SetMemberStandingType records a member's storage identity and role
	// (member_standing.go).
	SetMemberStandingType CommandType = 19

	// Controller commands (docs/operators/controller.md), from 40 up.
	ApplyBrokerIDType       CommandType = 40
	UpdateBrokerAddressType CommandType = 41
	ElectMasterType         CommandType = 42
	AlterSyncStateSetType   CommandType = 43
	CleanBrokerDataType     CommandType = 44

	// 20 is taken by the request-id envelope (request.go); it is not a
	// command.
)

// commands describes every command, once: adding one means a type value
// above, its struct below, a line here and its apply function (see
// docs/contributors/architecture.md, "Adding a replicated command").
var commands = newRegistry(
	withHandResult(commandWithResult(RegisterBrokerType, "RegisterBroker", Forwardable, (*FSM).applyRegisterBroker),
		appendRegisterResult, decodeRegisterResult),
	command(UnregisterBrokerType, "UnregisterBroker", Forwardable, (*FSM).applyUnregisterBroker),
	command(ExpireBrokersType, "ExpireBrokers", LeaderOnly, (*FSM).applyExpireBrokers),
	commandWithResult(WipeWritePermType, "WipeWritePerm", Forwardable,
		func(_ *FSM, s *state, c *WipeWritePerm, _ uint64) (WritePermResult, bool) {
			return s.applyWritePerm(c.BrokerName, false)
		}),
	commandWithResult(AddWritePermType, "AddWritePerm", Forwardable,
		func(_ *FSM, s *state, c *AddWritePerm, _ uint64) (WritePermResult, bool) {
			return s.applyWritePerm(c.BrokerName, true)
		}),
	command(DeleteTopicType, "DeleteTopic", Forwardable,
		func(_ *FSM, s *state, c *DeleteTopic, _ uint64) bool { return s.applyDeleteTopic(c) }),
	command(RegisterTopicType, "RegisterTopic", Forwardable,
		func(f *FSM, s *state, c *RegisterTopic, _ uint64) bool { return f.applyRegisterTopic(s, c) }),
	command(PutKVType, "PutKV", Forwardable,
		func(_ *FSM, s *state, c *PutKV, _ uint64) bool { return s.applyPutKV(c) }),
	command(DeleteKVType, "DeleteKV", Forwardable,
		func(_ *FSM, s *state, c *DeleteKV, _ uint64) bool { return s.applyDeleteKV(c) }),
	command(SetMemberType, "SetMember", LeaderOnly,
		func(_ *FSM, s *state, c *SetMember, _ uint64) bool { return s.applySetMember(c) }),
	command(RemoveMemberType, "RemoveMember", LeaderOnly,
		func(_ *FSM, s *state, c *RemoveMember, _ uint64) bool { return s.applyRemoveMember(c) }),
	needs(command(SetMemberDrainingType, "SetMemberDraining", LeaderOnly,
		func(_ *FSM, s *state, c *SetMemberDraining, _ uint64) bool { return s.applySetMemberDraining(c) }),
		feature.DrainedRemoval),
	commandWithResult(AckMinBrokerIDNoticeType, "AckMinBrokerIDNotice", LeaderOnly,
		func(_ *FSM, s *state, c *AckMinBrokerIDNotice, _ uint64) (AckResult, bool) {
			return s.applyAckMinBrokerIDNotice(c)
		}),
	command(SetClusterVersionType, "SetClusterVersion", LeaderOnly,
		func(_ *FSM, s *state, c *SetClusterVersion, _ uint64) bool { return s.applySetClusterVersion(c) }),
	needs(command(RecordAuditType, "RecordAudit", Forwardable, applyRecordAudit), feature.AuditTrail),
	needs(command(DropUnlistedTopicsType, "DropUnlistedTopics", LeaderOnly, (*FSM).applyDropUnlistedTopics),
		feature.SplitDeletion),
	needs(command(SetMemberStandingType, "SetMemberStanding", LeaderOnly,
		func(_ *FSM, s *state, c *SetMemberStanding, _ uint64) bool { return s.applySetMemberStanding(c) }),
		feature.StorageIdentity),
	controllerCommand(ApplyBrokerIDType, "ApplyBrokerID", (*state).applyApplyBrokerID),
	controllerCommand(UpdateBrokerAddressType, "UpdateBrokerAddress", (*state).applyUpdateBrokerAddress),
	controllerCommand(ElectMasterType, "ElectMaster", (*state).applyElectMaster),
	controllerCommand(AlterSyncStateSetType, "AlterSyncStateSet", (*state).applyAlterSyncStateSet),
	controllerCommand(CleanBrokerDataType, "CleanBrokerData", (*state).applyCleanBrokerData),
)

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
