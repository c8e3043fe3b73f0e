package cluster

import (
	"context"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
)

// Status reports this member's status.
func (n *Node) Status() adminapi.Status {
	ready, reason := n.Ready()
	leaderID, leaderAddr := n.Leader()
	brokers, topics := n.fsm.Counts()
	st := adminapi.Status{
		ID:               n.cfg.ID,
		State:            n.raft.State().String(),
		LeaderID:         leaderID,
		LeaderAddr:       leaderAddr,
		Ready:            ready,
		ReadyReason:      reason,
		LeaderReady:      n.tenure.inOffice(),
		CommitIndex:      n.raft.CommitIndex(),
		AppliedIndex:     n.fsm.AppliedIndex(),
		RaftAppliedIndex: n.raft.AppliedIndex(),
		LastIndex:        n.raft.LastIndex(),
		ClusterAddr:      string(n.trans.LocalAddr()),
		ClientAddr:       n.cfg.ClientAddr,
		HTTPAddr:         n.cfg.HTTPAddr,
		Zone:             n.cfg.Zone,
		Brokers:          brokers,
		Topics:           topics,
		Build:            n.build(),
		ClusterVersion:   n.fsm.ClusterVersion().String(),
		Membership:       n.Membership(),
		Configuration:    configurationIDs(n.raft),
		Settings:         n.ownSettings(),
		StorageID:        n.StorageID(),
	}
	st.Admission, st.AdmissionReason = n.Admission()
	st.Term = n.raft.CurrentTerm()
	switch {
	case n.raft.State() == raft.Leader:
		st.LastContactMillis = 0
	case n.raft.LastContact().IsZero():
		st.LastContactMillis = -1
	default:
		st.LastContactMillis = time.Since(n.raft.LastContact()).Milliseconds()
	}
	for _, m := range n.fsm.Members() {
		if m.ID == leaderID {
			st.LeaderClientAddr, st.LeaderHTTPAddr = m.ClientAddr, m.HTTPAddr
		}
	}
	return st
}

// memberStatus asks another member for its status over the cluster port.
func (n *Node) memberStatus(ctx context.Context, addr string) (adminapi.Status, error) {
	var st adminapi.Status
	if err := n.pool.call(ctx, addr, "Status", &StatusArgs{}, &st, false); err != nil {
		// After a timeout the RPC client may still be decoding a late reply
		// into st: do not read it.
		return adminapi.Status{}, err
	}
	return st, nil
}

// build is what this member says of its build.
func (n *Node) build() buildinfo.Info {
	b := buildinfo.Get()
	if n.cfg.release != "" {
		b.Release = n.cfg.release
	}
	return b
}
