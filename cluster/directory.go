package cluster

import (
	"context"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/feature"
)

// promoteCaughtUpNonvoters makes a non-voter a voter once its applied index
// stayed within PromoteMaxLag of the leader's last index for PromoteAfter.
func (m *membership) promoteCaughtUpNonvoters() {
	fut := m.raft.GetConfiguration()
	if fut.Error() != nil {
		return
	}
	now := time.Now()
	last := m.raft.LastIndex()
	for _, s := range fut.Configuration().Servers {
		if s.Suffrage != raft.Nonvoter {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
		st, err := m.probe(ctx, string(s.Address))
		cancel()
		if err != nil || st.RaftAppliedIndex+m.cfg.PromoteMaxLag < last || !m.promotable(s, st) {
			delete(m.promotions, s.ID)
			continue
		}
		since, ok := m.promotions[s.ID]
		if !ok {
			m.promotions[s.ID] = now
			continue
		}
		if now.Sub(since) < m.cfg.PromoteAfter {
			continue
		}
		if err := m.raft.AddVoter(s.ID, s.Address, fut.Index(), membershipTimeout).Error(); err != nil {
			m.logger.Warn("promotion failed", "id", s.ID, "error", err)
			continue
		}
		delete(m.promotions, s.ID)
		m.logger.Info("member promoted to voter", "id", s.ID, "applied", st.RaftAppliedIndex, "leader_last", last)
	}
}

// reconcileMemberDirectory keeps the replicated member directory in line
// with the Raft configuration, so any member can name every member's client
// and admin addresses. Members missing from the directory, or listed with
// another cluster address, are published; with full set, every member's
// addresses are re-read and republished if they changed. The first pass
// after the cluster version allows zones is a full one, so that zones
// appear without waiting for DirectoryRefresh.
func (m *membership) reconcileMemberDirectory(full bool) {
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return
	}
	zones := m.fsm.Gate().Allows(feature.MemberZones)
	full = full || zones && !m.zonesPublished
	if full && zones {
		m.zonesPublished = true
	}
	known := map[string]state.Member{}
	for _, member := range m.fsm.Members() {
		known[member.ID] = member
	}
	inConf := map[string]bool{}
	for _, s := range conf.Servers {
		inConf[string(s.ID)] = true
	}
	for _, s := range conf.Servers {
		listed, ok := known[string(s.ID)]
		if ok && listed.ClusterAddr == string(s.Address) && !full {
			continue
		}
		fresh, ok2 := m.memberEntry(s)
		if !ok2 || (ok && fresh == listed) {
			continue
		}
		if err := directoryClash(fresh, known, inConf); err != nil {
			m.logger.Error("member not listed in the member directory", "id", s.ID, "error", err)
			continue
		}
		m.applyMemberChange(fsm.SetMemberType, &state.SetMember{Member: fresh})
	}
	for id := range known {
		if !inConf[id] {
			m.applyMemberChange(fsm.RemoveMemberType, &state.RemoveMember{ID: id})
		}
	}
}

// memberEntry reads a member's addresses; false if it did not answer.
func (m *membership) memberEntry(s raft.Server) (state.Member, bool) {
	st := m.self()
	if string(s.ID) != m.cfg.ID {
		ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
		var err error
		st, err = m.probe(ctx, string(s.Address))
		cancel()
		if err != nil {
			return state.Member{}, false
		}
	}
	entry := state.Member{ID: string(s.ID), ClientAddr: st.ClientAddr, ClusterAddr: string(s.Address), HTTPAddr: st.HTTPAddr}
	if m.fsm.Gate().Allows(feature.MemberZones) {
		entry.Zone = st.Zone
	}
	return entry, true
}

func (m *membership) applyMemberChange(t fsm.CommandType, cmd any) {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.ApplyTimeout)
	defer cancel()
	if _, err := m.propose(ctx, t, cmd); err != nil {
		m.logger.Warn("member directory update failed", "command", t, "error", err)
	}
}

// directoryClash refuses an entry whose client or cluster address a listed
// member of the configuration already has.
func directoryClash(fresh state.Member, known map[string]state.Member, inConf map[string]bool) error {
	self := addrHolder{ID: fresh.ID, ClientAddr: fresh.ClientAddr, ClusterAddr: fresh.ClusterAddr}
	for id, other := range known {
		if !inConf[id] {
			continue
		}
		if err := addressClash(self, addrHolder{ID: other.ID, ClientAddr: other.ClientAddr, ClusterAddr: other.ClusterAddr}); err != nil {
			return err
		}
	}
	return nil
}
