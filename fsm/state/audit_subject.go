package state

import (
	"fmt"
	"strings"
)

// Audit kinds: what an AuditRecord's change was.
const (
	AuditWipeWritePerm  = "write-perm-wipe"
	AuditAddWritePerm   = "write-perm-add"
	AuditRegisterTopic  = "topic-register"
	AuditDeleteTopic    = "topic-delete"
	AuditPutKV          = "kv-put"
	AuditDeleteKV       = "kv-delete"
	AuditBrokerExpiry   = "broker-expiry"
	AuditBrokerID       = "broker-id-allocation"
	AuditMasterElection = "master-election"
	// Kinds of RecordAudit entries.
	AuditConfigUpdate    = "config-update"
	AuditMemberAdd       = "member-add"
	AuditMemberRemove    = "member-remove"
	AuditLeaderTransfer  = "leader-transfer"
	AuditSnapshotRestore = "snapshot-restore"
	AuditUpgrade         = "cluster-upgrade"
	// AuditMemberReadmit is a member on new storage made a non-voter and
	// its storage identity recorded; AuditMemberPromote and
	// AuditMemberDemote change a member's suffrage.
	AuditMemberReadmit = "member-readmit"
	AuditMemberPromote = "member-promote"
	AuditMemberDemote  = "member-demote"
)

// AuditKinds lists every kind, for metrics and validation.
var AuditKinds = auditKinds[:]

// auditKinds is AuditKinds as an array, whose length sizes kindCounts.
var auditKinds = [...]string{
	AuditWipeWritePerm, AuditAddWritePerm, AuditRegisterTopic, AuditDeleteTopic, AuditPutKV, AuditDeleteKV,
	AuditBrokerExpiry, AuditBrokerID, AuditMasterElection, AuditConfigUpdate, AuditMemberAdd,
	AuditMemberRemove, AuditLeaderTransfer, AuditSnapshotRestore, AuditUpgrade, AuditMemberReadmit,
	AuditMemberPromote, AuditMemberDemote,
}

// kvValueShown is how much of a KV value a record keeps.
const kvValueShown = 16

// AuditSubject describes what an audited command is about, from the
// state before it is applied.
func (s *State) AuditSubject(cmd any) AuditRecord {
	switch c := cmd.(type) {
	case *WipeWritePerm:
		return AuditRecord{Kind: AuditWipeWritePerm, Broker: c.BrokerName}
	case *AddWritePerm:
		return AuditRecord{Kind: AuditAddWritePerm, Broker: c.BrokerName}
	case *DeleteTopic:
		return AuditRecord{Kind: AuditDeleteTopic, Topic: c.Topic, Cluster: c.ClusterName}
	case *RegisterTopic:
		names := make([]string, 0, len(c.QueueDatas))
		for _, qd := range c.QueueDatas {
			names = append(names, qd.BrokerName)
		}
		return AuditRecord{Kind: AuditRegisterTopic, Topic: c.Topic, Broker: strings.Join(names, ",")}
	case *PutKV:
		return kvSubject(AuditPutKV, c.Namespace, c.Key,
			fmt.Sprintf("namespace=%s key=%s value=%s", c.Namespace, c.Key, shortValue(c.Value, c.HasValue)))
	case *DeleteKV:
		return kvSubject(AuditDeleteKV, c.Namespace, c.Key, fmt.Sprintf("namespace=%s key=%s", c.Namespace, c.Key))
	case *ExpireBrokers:
		return expirySubject(s, c)
	case *ApplyBrokerID:
		return AuditRecord{Kind: AuditBrokerID, Cluster: c.ClusterName, Broker: c.BrokerName,
			Detail: fmt.Sprintf("id=%d addr=%s", c.BrokerID, c.Addr)}
	case *ElectMaster:
		d := "any replica"
		if c.HasNewMaster {
			d = fmt.Sprintf("designated=%d", c.NewMasterID)
		}
		return AuditRecord{Kind: AuditMasterElection, Broker: c.BrokerName, Detail: d}
	case *RecordAudit:
		return c.Record
	case *SetSettings:
		return settingsSubject(c)
	}
	return AuditRecord{Kind: fmt.Sprintf("%T", cmd)}
}

// kvSubject is a KV change's record; a key of the ORDER_TOPIC_CONFIG
// namespace is a topic name, so the record names it as its topic.
func kvSubject(kind, ns, key, detail string) AuditRecord {
	rec := AuditRecord{Kind: kind, Detail: detail}
	if ns == "ORDER_TOPIC_CONFIG" {
		rec.Topic = key
	}
	return rec
}

// shortValue shows the start of a KV value and its length: enough to tell
// values apart, not enough to copy a large one out of the trail.
func shortValue(v string, has bool) string {
	if !has {
		return "(none)"
	}
	if len(v) <= kvValueShown {
		return fmt.Sprintf("%q", v)
	}
	return fmt.Sprintf("%q(%d bytes)", truncate(v, kvValueShown), len(v))
}

// expirySubject names the brokers an expiry will remove (those whose
// registration epoch the leader saw), with their cluster and the reason.
func expirySubject(s *State, c *ExpireBrokers) AuditRecord {
	var names, addrs []string
	clusters := map[string]bool{}
	for _, eb := range c.Brokers {
		reg, ok := s.regs()[eb.Key]
		if !ok || reg.RegEpoch != eb.RegEpoch {
			continue
		}
		names = append(names, reg.BrokerName)
		addrs = append(addrs, eb.Key.Addr)
		clusters[eb.Key.Cluster] = true
	}
	rec := AuditRecord{Kind: AuditBrokerExpiry, Broker: strings.Join(names, ","),
		Detail: fmt.Sprintf("reason=%s addrs=%s", c.Reason, strings.Join(addrs, ","))}
	if len(clusters) == 1 {
		for cl := range clusters {
			rec.Cluster = cl
		}
	}
	return rec
}

// resultDetail is what a command's answer adds to its record.
func resultDetail(res any) string {
	switch r := res.(type) {
	case WritePermResult:
		return fmt.Sprintf("topics=%d", r.TopicCount)
	case ControllerResult:
		if r.Refusal == RefusalNone && r.Group.HasMaster {
			return fmt.Sprintf("master=%d epoch=%d", r.Group.MasterID, r.Group.MasterEpoch)
		}
	}
	return ""
}
