package cluster

import (
	"context"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
)

// Peers lists every member of the configuration with its suffrage, applied
// index, lag behind the leader's last index, last leader contact and
// whether it is being drained.
func (n *Node) Peers(ctx context.Context) ([]adminapi.PeerStatus, error) {
	if n.Removed() {
		return nil, ErrRemoved
	}
	conf, err := currentConfiguration(n.raft)
	if err != nil {
		return nil, err
	}
	leaderID, _ := n.Leader()
	statuses := make([]adminapi.Status, len(conf.Servers))
	reachable := make([]bool, len(conf.Servers))
	var leaderLast uint64
	for i, s := range conf.Servers {
		if string(s.ID) == n.cfg.ID {
			statuses[i], reachable[i] = n.Status(), true
		} else {
			pctx, cancel := context.WithTimeout(ctx, statusProbeTimeout)
			st, err := n.memberStatus(pctx, string(s.Address))
			cancel()
			statuses[i], reachable[i] = st, err == nil
		}
		if string(s.ID) == leaderID && reachable[i] {
			leaderLast = statuses[i].LastIndex
		}
	}
	listedZone := map[string]string{}
	for _, m := range n.fsm.Members() {
		listedZone[m.ID] = m.Zone
	}
	out := make([]adminapi.PeerStatus, len(conf.Servers))
	for i, s := range conf.Servers {
		out[i] = peerStatus(s, statuses[i], reachable[i], string(s.ID) == leaderID, leaderLast)
		if !reachable[i] {
			out[i].Zone = listedZone[string(s.ID)]
		}
		standing, _ := n.fsm.MemberStanding(string(s.ID))
		out[i].Stage = stageOf(s, statuses[i], reachable[i], standing)
		out[i].RecordedStorageID = standing.StorageID
		if d, ok := n.fsm.Draining(string(s.ID)); ok {
			out[i].Membership, out[i].DrainMillis = adminapi.MembershipDraining, d.DrainMillis
		}
	}
	return out, nil
}

func peerStatus(s raft.Server, st adminapi.Status, reachable, leader bool, leaderLast uint64) adminapi.PeerStatus {
	p := adminapi.PeerStatus{
		ID:       string(s.ID),
		Address:  string(s.Address),
		Suffrage: s.Suffrage.String(),
		Leader:   leader,
	}
	if !reachable {
		return p
	}
	p.Reachable = true
	p.State, p.Ready, p.ReadyReason, p.Term = st.State, st.Ready, st.ReadyReason, st.Term
	p.AppliedIndex, p.LastContactMillis = st.AppliedIndex, st.LastContactMillis
	p.ClientAddr, p.HTTPAddr, p.Zone = st.ClientAddr, st.HTTPAddr, st.Zone
	p.Release, p.Commit = st.Build.Release, st.Build.Commit
	p.StorageID, p.Waiting = st.StorageID, st.AdmissionReason
	if leaderLast > st.RaftAppliedIndex {
		p.Lag = leaderLast - st.RaftAppliedIndex
	}
	return p
}

// stageOf says where a member stands on its way to a vote. A member on
// new storage that does not vote yet awaits re-admission when it returns
// to a place it held (returning). A new member shows the stage of its
// suffrage meanwhile: it never had a vote, and the leader records its
// first storage identity within about a second of reaching it
// (readmission.go). Either way it does not vote until it has applied that
// record (admission.go).
func stageOf(s raft.Server, st adminapi.Status, reachable bool, standing state.MemberStanding) string {
	switch {
	case reachable && st.Admission != adminapi.AdmissionAdmitted && returning(s.Suffrage, standing, st.StorageID):
		return adminapi.StageAwaiting
	case s.Suffrage == raft.Voter:
		return adminapi.StageVoter
	case standing.NonVoter:
		return adminapi.StageNonvoter
	}
	return adminapi.StageCatchingUp
}

// returning reports whether a member on storage storageID that does not
// vote yet returns to a place it held, rather than being new: it is a
// voter, or the cluster recorded another storage for it.
func returning(suffrage raft.ServerSuffrage, standing state.MemberStanding, storageID string) bool {
	return suffrage == raft.Voter || standing.StorageID != "" && standing.StorageID != storageID
}
