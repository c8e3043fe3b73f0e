package fsm

import "github.com/raftns/raftns/fsm/state"

// The replicated tables live in package state; these names keep its value
// types, constants and helpers reachable as fsm.X, the vocabulary the rest
// of the code base speaks.

// Value types of the tables and payloads of the commands.
type (
	AckMinBrokerIDNotice  = state.AckMinBrokerIDNotice
	AckResult             = state.AckResult
	AddWritePerm          = state.AddWritePerm
	AlterSyncStateSet     = state.AlterSyncStateSet
	ApplyBrokerID         = state.ApplyBrokerID
	AuditPage             = state.AuditPage
	AuditQuery            = state.AuditQuery
	AuditRecord           = state.AuditRecord
	AuditStamp            = state.AuditStamp
	BrokerData            = state.BrokerData
	BrokerKey             = state.BrokerKey
	BrokerMemberGroup     = state.BrokerMemberGroup
	BrokerRegistration    = state.BrokerRegistration
	CleanBrokerData       = state.CleanBrokerData
	ClusterInfo           = state.ClusterInfo
	ControllerRefusal     = state.ControllerRefusal
	ControllerResult      = state.ControllerResult
	DataVersion           = state.DataVersion
	DeleteKV              = state.DeleteKV
	DeleteTopic           = state.DeleteTopic
	DrainingMember        = state.DrainingMember
	DropUnlistedTopics    = state.DropUnlistedTopics
	ElectMaster           = state.ElectMaster
	ExpireBrokers         = state.ExpireBrokers
	ExpiredBroker         = state.ExpiredBroker
	Member                = state.Member
	MemberStanding        = state.MemberStanding
	MinBrokerIDNotice     = state.MinBrokerIDNotice
	PutKV                 = state.PutKV
	QueueData             = state.QueueData
	RecordAudit           = state.RecordAudit
	Refused               = state.Refused
	RegisterBroker        = state.RegisterBroker
	RegisterResult        = state.RegisterResult
	RegisterTopic         = state.RegisterTopic
	RemoveMember          = state.RemoveMember
	ReplicaBroker         = state.ReplicaBroker
	ReplicaGroup          = state.ReplicaGroup
	RequestID             = state.RequestID
	SetClusterVersion     = state.SetClusterVersion
	SetMember             = state.SetMember
	SetMemberDraining     = state.SetMemberDraining
	SetMemberStanding     = state.SetMemberStanding
	SetSettings           = state.SetSettings
	TopicConfig           = state.TopicConfig
	TopicList             = state.TopicList
	TopicQueueMappingInfo = state.TopicQueueMappingInfo
	TopicRouteData        = state.TopicRouteData
	UnregisterBroker      = state.UnregisterBroker
	UpdateBrokerAddress   = state.UpdateBrokerAddress
	WipeWritePerm         = state.WipeWritePerm
	WritePermResult       = state.WritePermResult
)

// Constants of the tables and the command payloads.
const (
	AuditAddWritePerm              = state.AuditAddWritePerm
	AuditBrokerExpiry              = state.AuditBrokerExpiry
	AuditBrokerID                  = state.AuditBrokerID
	AuditConfigUpdate              = state.AuditConfigUpdate
	AuditDeleteKV                  = state.AuditDeleteKV
	AuditDeleteTopic               = state.AuditDeleteTopic
	AuditLeaderTransfer            = state.AuditLeaderTransfer
	AuditMasterElection            = state.AuditMasterElection
	AuditMemberAdd                 = state.AuditMemberAdd
	AuditMemberDemote              = state.AuditMemberDemote
	AuditMemberPromote             = state.AuditMemberPromote
	AuditMemberReadmit             = state.AuditMemberReadmit
	AuditMemberRemove              = state.AuditMemberRemove
	AuditPutKV                     = state.AuditPutKV
	AuditRegisterTopic             = state.AuditRegisterTopic
	AuditSnapshotRestore           = state.AuditSnapshotRestore
	AuditUpgrade                   = state.AuditUpgrade
	AuditWipeWritePerm             = state.AuditWipeWritePerm
	FirstControllerBrokerID        = state.FirstControllerBrokerID
	FlagUnit                       = state.FlagUnit
	FlagUnitSub                    = state.FlagUnitSub
	MasterID                       = state.MasterID
	MaxAuditPage                   = state.MaxAuditPage
	MaxAuditRecords                = state.MaxAuditRecords
	MaxAuditScan                   = state.MaxAuditScan
	MaxAuditStampField             = state.MaxAuditStampField
	MaxSettingsPerScope            = state.MaxSettingsPerScope
	NamespaceOrderTopicConfig      = state.NamespaceOrderTopicConfig
	OutcomeApplied                 = state.OutcomeApplied
	OutcomeNoChange                = state.OutcomeNoChange
	PermInherit                    = state.PermInherit
	PermPriority                   = state.PermPriority
	PermRead                       = state.PermRead
	PermWrite                      = state.PermWrite
	RefusalAlterFailed             = state.RefusalAlterFailed
	RefusalBrokerIDInvalid         = state.RefusalBrokerIDInvalid
	RefusalBrokerNotAlive          = state.RefusalBrokerNotAlive
	RefusalCleanInvalid            = state.RefusalCleanInvalid
	RefusalElectFailed             = state.RefusalElectFailed
	RefusalFencedMasterEpoch       = state.RefusalFencedMasterEpoch
	RefusalFencedSyncStateSetEpoch = state.RefusalFencedSyncStateSetEpoch
	RefusalInvalidMaster           = state.RefusalInvalidMaster
	RefusalInvalidReplicas         = state.RefusalInvalidReplicas
	RefusalMasterNotAvailable      = state.RefusalMasterNotAvailable
	RefusalNoMetadata              = state.RefusalNoMetadata
	RefusalNone                    = state.RefusalNone
	RefusalNotRegistered           = state.RefusalNotRegistered
	RefusalStaleElection           = state.RefusalStaleElection
	SettingsController             = state.SettingsController
	SettingsNamesrv                = state.SettingsNamesrv
	SyncBrokerMemberGroupPrefix    = state.SyncBrokerMemberGroupPrefix
)

// Helpers of the value types.
var (
	FilterByZone             = state.FilterByZone
	MasterStillAliveRemark   = state.MasterStillAliveRemark
	RecordTypeName           = state.RecordTypeName
	RefuseCleanIDs           = state.RefuseCleanIDs
	RefuseCleanLivingBroker  = state.RefuseCleanLivingBroker
	RefuseCleanLivingGroup   = state.RefuseCleanLivingGroup
	RefuseCleanUnknownGroup  = state.RefuseCleanUnknownGroup
	RefuseElectFailed        = state.RefuseElectFailed
	RefuseElectUnknownGroup  = state.RefuseElectUnknownGroup
	RefuseMasterNotAvailable = state.RefuseMasterNotAvailable
	RefuseNoMetadata         = state.RefuseNoMetadata
	RefuseReplicaNotAlive    = state.RefuseReplicaNotAlive
	RefuseUnknownBroker      = state.RefuseUnknownBroker
	RefuseUnknownGroup       = state.RefuseUnknownGroup
	SecretSetting            = state.SecretSetting
	SettingsDetail           = state.SettingsDetail
	ShowActingMasters        = state.ShowActingMasters
	AuditKinds               = state.AuditKinds
)
