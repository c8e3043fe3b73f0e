package cluster

import (
	"context"
	"time"

	"github.com/hashicorp/raft"
)

// Status is a member's view of itself and of the leader.
type Status struct {
	ID               string `json:"id"`
	State            string `json:"state"`
	LeaderID         string `json:"leaderId"`
	LeaderAddr       string `json:"leaderAddr"`
	LeaderClientAddr string `json:"leaderClientAddr,omitempty"`
	LeaderHTTPAddr   string `json:"leaderHttpAddr,omitempty"`
	Ready            bool   `json:"ready"`
	ReadyReason      string `json:"readyReason,omitempty"`
	LeaderReady      bool   `json:"leaderReady"`
	Term             uint64 `json:"term"`
	CommitIndex      uint64 `json:"commitIndex"`
	// AppliedIndex is the FSM's; no-ops and barriers never reach it.
	AppliedIndex uint64 `json:"appliedIndex"`
	// RaftAppliedIndex counts every applied entry; lag is measured with it.
	RaftAppliedIndex uint64 `json:"raftAppliedIndex"`
	LastIndex        uint64 `json:"lastIndex"`
	// LastContactMillis is how long ago the leader was last heard from:
	// 0 on the leader, -1 if never.
	LastContactMillis int64  `json:"lastContactMillis"`
	ClusterAddr       string `json:"clusterAddr"`
	ClientAddr        string `json:"clientAddr"`
	HTTPAddr          string `json:"httpAddr"`
	Brokers           int    `json:"brokers"`
	Topics            int    `json:"topics"`
}

// Status reports this member's status.
func (n *Node) Status() Status {
	ready, reason := n.Ready()
	leaderID, leaderAddr := n.Leader()
	brokers, topics := n.fsm.Counts()
	st := Status{
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
		Brokers:          brokers,
		Topics:           topics,
	}
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
func (n *Node) memberStatus(ctx context.Context, addr string) (Status, error) {
	var st Status
	if err := n.pool.call(ctx, addr, "Status", &StatusArgs{}, &st, false); err != nil {
		// After a timeout the RPC client may still be decoding a late reply
		// into st: do not read it.
		return Status{}, err
	}
	return st, nil
}
