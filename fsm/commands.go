package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/feature"
)

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
	// SetClusterVersionType raises the cluster version (state/cluster_version.go);
	// the leader proposes it only when every member runs that release.
	SetClusterVersionType CommandType = 13
	// SetMemberDrainingType starts or ends the drain of a member being
	// removed (state/member_draining.go).
	SetMemberDrainingType CommandType = 15
	// RecordAuditType (16) and the audit envelope (17) are declared in
	// audit.go.
	// DropUnlistedTopicsType follows the parts of a split registration
	// that deletes unlisted topics (drop_unlisted.go).
	DropUnlistedTopicsType CommandType = 18
	// SetSettingsType changes cluster-wide run-time settings
	// (state/settings.go).
	SetSettingsType CommandType = 19
	// The request envelope (20, request.go) and the versioned envelope
	// (21, versioned.go) are not commands.
	// SetMemberStandingType records a member's storage identity and role
	// (state/member_standing.go).
	SetMemberStandingType CommandType = 22

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
// above, its payload struct in package state (state/commands.go), a line
// here and its apply function (see docs/contributors/architecture.md,
// "Adding a replicated command").
var commands = newRegistry(
	withHandResult(commandWithResult(RegisterBrokerType, "RegisterBroker", Forwardable, (*FSM).applyRegisterBroker),
		appendRegisterResult, decodeRegisterResult),
	command(UnregisterBrokerType, "UnregisterBroker", Forwardable, (*FSM).applyUnregisterBroker),
	command(ExpireBrokersType, "ExpireBrokers", LeaderOnly, (*FSM).applyExpireBrokers),
	commandWithResult(WipeWritePermType, "WipeWritePerm", Forwardable,
		func(_ *FSM, s *state.State, c *state.WipeWritePerm, _ uint64) (state.WritePermResult, bool) {
			return s.ApplyWritePerm(c.BrokerName, false)
		}),
	commandWithResult(AddWritePermType, "AddWritePerm", Forwardable,
		func(_ *FSM, s *state.State, c *state.AddWritePerm, _ uint64) (state.WritePermResult, bool) {
			return s.ApplyWritePerm(c.BrokerName, true)
		}),
	command(DeleteTopicType, "DeleteTopic", Forwardable,
		func(_ *FSM, s *state.State, c *state.DeleteTopic, _ uint64) bool { return s.ApplyDeleteTopic(c) }),
	command(RegisterTopicType, "RegisterTopic", Forwardable,
		func(f *FSM, s *state.State, c *state.RegisterTopic, _ uint64) bool { return f.applyRegisterTopic(s, c) }),
	command(PutKVType, "PutKV", Forwardable,
		func(_ *FSM, s *state.State, c *state.PutKV, _ uint64) bool { return s.ApplyPutKV(c) }),
	command(DeleteKVType, "DeleteKV", Forwardable,
		func(_ *FSM, s *state.State, c *state.DeleteKV, _ uint64) bool { return s.ApplyDeleteKV(c) }),
	command(SetMemberType, "SetMember", LeaderOnly,
		func(_ *FSM, s *state.State, c *state.SetMember, _ uint64) bool { return s.ApplySetMember(c) }),
	command(RemoveMemberType, "RemoveMember", LeaderOnly,
		func(_ *FSM, s *state.State, c *state.RemoveMember, _ uint64) bool { return s.ApplyRemoveMember(c) }),
	needs(command(SetMemberDrainingType, "SetMemberDraining", LeaderOnly,
		func(_ *FSM, s *state.State, c *state.SetMemberDraining, _ uint64) bool {
			return s.ApplySetMemberDraining(c)
		}),
		feature.DrainedRemoval),
	commandWithResult(AckMinBrokerIDNoticeType, "AckMinBrokerIDNotice", LeaderOnly,
		func(_ *FSM, s *state.State, c *state.AckMinBrokerIDNotice, _ uint64) (state.AckResult, bool) {
			return s.ApplyAckMinBrokerIDNotice(c)
		}),
	command(SetClusterVersionType, "SetClusterVersion", LeaderOnly,
		func(_ *FSM, s *state.State, c *state.SetClusterVersion, _ uint64) bool {
			return s.ApplySetClusterVersion(c)
		}),
	needs(command(RecordAuditType, "RecordAudit", Forwardable, applyRecordAudit), feature.AuditTrail),
	needs(command(DropUnlistedTopicsType, "DropUnlistedTopics", LeaderOnly, (*FSM).applyDropUnlistedTopics),
		feature.SplitDeletion),
	needs(command(SetSettingsType, "SetSettings", Forwardable, (*FSM).applySettingsEntry), feature.SharedSettings),
	needs(command(SetMemberStandingType, "SetMemberStanding", LeaderOnly,
		func(_ *FSM, s *state.State, c *state.SetMemberStanding, _ uint64) bool {
			return s.ApplySetMemberStanding(c)
		}),
		feature.StorageIdentity),
	controllerCommand(ApplyBrokerIDType, "ApplyBrokerID", (*state.State).ApplyApplyBrokerID),
	controllerCommand(UpdateBrokerAddressType, "UpdateBrokerAddress", (*state.State).ApplyUpdateBrokerAddress),
	controllerCommand(ElectMasterType, "ElectMaster", (*state.State).ApplyElectMaster),
	controllerCommand(AlterSyncStateSetType, "AlterSyncStateSet", (*state.State).ApplyAlterSyncStateSet),
	controllerCommand(CleanBrokerDataType, "CleanBrokerData", (*state.State).ApplyCleanBrokerData),
)
