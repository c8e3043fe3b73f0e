package cluster

import (
	"context"
	"fmt"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
)

// readmitLoop runs readmit on the leader every leaderHousekeep until stop
// closes, apart from the leader's other duties so that asking members for
// their status never delays them.
func (m *membership) readmitLoop(stop <-chan struct{}) {
	for poll.Sleep(leaderHousekeep, stop) {
		m.readmit()
	}
}

// readmit is the leader's side of admission (admission.go), run with its
// housekeeping. For each member of the configuration it compares the
// storage identity the member reports with the one recorded:
//   - none recorded, and the member votes (its storage is the one it was
//     admitted or upgraded with): the leader records it;
//   - the member waits on new storage: the leader records its new
//     identity, which re-admits it once the member has applied the record
//     (readmitOne); a non-voter is promoted once it has caught up
//     (promoteCaughtUpNonvoters).
//
// A member of a release without storage identities reports none and is
// left as before. Nothing is recorded while the cluster version does not
// allow it.
func (m *membership) readmit() {
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return
	}
	gated := m.fsm.Gate().Allows(feature.StorageIdentity)
	for _, s := range conf.Servers {
		st, ok := m.statusOf(s)
		if !ok || st.StorageID == "" {
			continue
		}
		standing, known := m.fsm.MemberStanding(string(s.ID))
		if known && standing.StorageID == st.StorageID {
			continue
		}
		switch st.Admission {
		case adminapi.AdmissionAdmitted:
			if gated {
				standing.ID, standing.StorageID = string(s.ID), st.StorageID
				m.recordStanding(standing)
			}
		case adminapi.AdmissionAwaiting:
			m.readmitOne(s, st, standing, gated)
		}
	}
}

// readmitOne re-admits a member awaiting on new storage by recording its
// new identity. A voter stays a voter meanwhile: it refuses to vote until
// it has applied the record, and it votes again as soon as it has, so that
// a second member losing its disk soon after does not find the cluster
// down to fewer voters than before. Making it a non-voter first would add
// nothing to safety (an unadmitted member never votes, and the entries it
// stores are the leader's) and would leave the cluster without a quorum if
// another voter lost its disk before the promotion.
func (m *membership) readmitOne(s raft.Server, st adminapi.Status, standing state.MemberStanding, gated bool) {
	if !gated {
		m.logger.Warn("a member on new storage cannot be re-admitted before the upgrade is finalized (raftnsctl upgrade finalize)",
			"id", s.ID, "cluster_version", m.fsm.ClusterVersion())
		return
	}
	previous := standing.StorageID
	standing.ID, standing.StorageID = string(s.ID), st.StorageID
	if !m.recordStanding(standing) {
		return
	}
	if previous == "" && s.Suffrage != raft.Voter {
		m.logger.Info("recorded a new member's storage identity; it may vote once it has applied this", "id", s.ID,
			"suffrage", s.Suffrage, "storage_id", st.StorageID)
	} else {
		m.logger.Warn("member returned on new storage: re-admitted; it votes once it has applied this", "id", s.ID,
			"suffrage", s.Suffrage, "storage_id", st.StorageID, "previous_storage_id", previous)
	}
	m.audit(state.AuditRecord{Kind: state.AuditMemberReadmit,
		Detail: fmt.Sprintf("id=%s storage=%s previous=%s", s.ID, st.StorageID, previous), Outcome: state.OutcomeApplied})
}

// statusOf is a member's status: this member's own, or asked.
func (m *membership) statusOf(s raft.Server) (adminapi.Status, bool) {
	if string(s.ID) == m.cfg.ID {
		return m.self(), true
	}
	ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
	defer cancel()
	st, err := m.probe(ctx, string(s.Address))
	return st, err == nil
}

// recordStanding replicates a standing; false when it failed.
func (m *membership) recordStanding(st state.MemberStanding) bool {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.ApplyTimeout)
	defer cancel()
	if _, err := m.propose(ctx, fsm.SetMemberStandingType, &state.SetMemberStanding{Standing: st}); err != nil {
		m.logger.Warn("recording a member's standing failed; the leader will retry", "id", st.ID, "error", err)
		return false
	}
	return true
}

// audit records a membership decision of the leader's own.
func (m *membership) audit(rec state.AuditRecord) {
	if m.record == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.ApplyTimeout)
	defer cancel()
	if err := m.record(ctx, rec); err != nil {
		m.logger.Warn("audit record not written", "kind", rec.Kind, "error", err)
	}
}

// quorumAnswersWithout refuses to take the vote of id away while the other
// voters that answer would not form a quorum of the voters left: the
// change itself could not commit.
func (m *membership) quorumAnswersWithout(conf raft.Configuration, id raft.ServerID) error {
	voters, answering := 0, 0
	for _, s := range conf.Servers {
		if s.Suffrage != raft.Voter || s.ID == id {
			continue
		}
		voters++
		if m.reachable(s) {
			answering++
		}
	}
	if need := voters/2 + 1; voters == 0 || answering < need {
		return fmt.Errorf("%w: %d of %d other voters answer, quorum needs %d", ErrQuorumAtRisk, answering, voters, voters/2+1)
	}
	return nil
}

// promotable reports whether a caught-up non-voter may become a voter: it
// votes on the storage the cluster recorded, and no operator keeps it a
// non-voter.
func (m *membership) promotable(s raft.Server, st adminapi.Status) bool {
	standing, known := m.fsm.MemberStanding(string(s.ID))
	if known && standing.NonVoter {
		return false
	}
	if st.Admission != adminapi.AdmissionAdmitted {
		return false
	}
	if st.StorageID != "" && m.fsm.Gate().Allows(feature.StorageIdentity) {
		return known && standing.StorageID == st.StorageID
	}
	return true
}
