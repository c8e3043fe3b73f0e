package feature

// The features. Declare each new log entry type, snapshot record or RPC
// here, once, with the first release that reads it, and bump
// buildinfo.Release to at least that release in the same change:
//
//	// AuditTrail: the AuditEvent log entry and the audit snapshot record.
//	AuditTrail = declare("audit-trail", "0.3.0")
//
// Then mark the command's line in fsm's command table,
// `needs(command(AuditEventType, …), feature.AuditTrail)`, check
// node.Gate().Allows(feature.AuditTrail) before writing the record or
// calling the RPC, and call the RPC by feature.Method(feature.AuditTrail,
// "Name") so that a member without it names the release it needs. Nothing
// declared here is used until an operator finalizes the upgrade
// (raftnsctl upgrade finalize), which every member must run a release of
// at least Since for (docs/operators/operations.md, "Upgrading").
var (
	// ClusterVersion is the finalized cluster version itself: the
	// SetClusterVersion log entry and the cluster-version snapshot
	// record. Finalizing checks every member's release directly, since
	// the gate cannot vouch for the entry that raises it.
	ClusterVersion = declare("cluster-version", "0.2.0")

	// DrainedRemoval is the SetMemberDraining log entry and the draining
	// member snapshot record: a removal that drains the member first
	// (docs/operators/operations.md, "Membership changes"). Without it a removal
	// takes effect at once.
	DrainedRemoval = declare("drained-removal", "0.2.0")

	// AuditTrail is the audit envelope of a log entry (who, from where,
	// through which member), the RecordAudit log entry and the audit
	// snapshot record (docs/operators/operations.md, "Audit trail"). Without it
	// nothing is audited.
	AuditTrail = declare("audit-trail", "0.3.0")

	// SplitDeletion is the DropUnlistedTopics log entry: the topics that a
	// registration too large for one log entry no longer lists, removed
	// after its parts when the broker deletes unlisted topics
	// (deleteTopicWithBrokerRegistration). Without it such a registration
	// deletes nothing.
	SplitDeletion = declare("split-deletion", "0.3.0")

	// SharedSettings is the SetSettings log entry and the settings
	// snapshot record: run-time settings (UPDATE_NAMESRV_CONFIG,
	// UPDATE_CONTROLLER_CONFIG) held by the cluster, the same on every
	// member (docs/operators/operations.md, "Run-time settings"). Without it an
	// update changes only the member it is sent to.
	SharedSettings = declare("shared-settings", "0.4.0")

	// AuditClasses bounds each retention class of the audit trail on its
	// own (operator records, applied changes, records of changes that did
	// nothing), so one class never evicts another. It changes how every
	// member applies audited entries, not what the log or a snapshot
	// holds; below it the trail keeps one bound over all records, as
	// release 0.3.0 does, so members of both releases keep the same trail.
	AuditClasses = declare("audit-classes", "0.4.0")

	// MemberZones is the zone of a member in the member directory (the
	// Zone field of the SetMember log entry and the member snapshot
	// record): the address service's answers per zone and the placement
	// check of raftnsctl peers list (docs/operators/operations.md,
	// "Several zones"). Without it the leader publishes no zones.
	MemberZones = declare("member-zones", "0.4.0")

	// StorageIdentity is the SetMemberStanding log entry and the member
	// standing snapshot record: each member's storage identity and role
	// (docs/operators/operations.md, "When a member loses its disk"). Without it a
	// member that returns with a new data directory waits, refusing to
	// vote, until the upgrade is finalized.
	StorageIdentity = declare("storage-identity", "0.4.0")
)
