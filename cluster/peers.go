package cluster

import (
	"context"

	"github.com/hashicorp/raft"
)

// PeerStatus is one member as seen by "peers list".
type PeerStatus struct {
	ID       string `json:"id"`
	Address  string `json:"address"`
	Suffrage string `json:"suffrage"`
	Leader   bool   `json:"leader"`
	// Reachable is false when the member did not answer; the fields below
	// are then zero.
	Reachable    bool   `json:"reachable"`
	State        string `json:"state,omitempty"`
	Ready        bool   `json:"ready"`
	ReadyReason  string `json:"readyReason,omitempty"`
	Term         uint64 `json:"term,omitempty"`
	AppliedIndex uint64 `json:"appliedIndex"`
	// Lag is the leader's last index minus the member's Raft applied index.
	Lag               uint64 `json:"lag"`
	LastContactMillis int64  `json:"lastContactMillis"`
	ClientAddr        string `json:"clientAddr,omitempty"`
	HTTPAddr          string `json:"httpAddr,omitempty"`
}

// Peers lists every member of the configuration with its suffrage, applied
// index, lag behind the leader's last index and last leader contact.
func (n *Node) Peers(ctx context.Context) ([]PeerStatus, error) {
	conf, err := currentConfiguration(n.raft)
	if err != nil {
		return nil, err
	}
	leaderID, _ := n.Leader()
	statuses := make([]Status, len(conf.Servers))
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
	out := make([]PeerStatus, len(conf.Servers))
	for i, s := range conf.Servers {
		out[i] = peerStatus(s, statuses[i], reachable[i], string(s.ID) == leaderID, leaderLast)
	}
	return out, nil
}

func peerStatus(s raft.Server, st Status, reachable, leader bool, leaderLast uint64) PeerStatus {
	p := PeerStatus{
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
	p.ClientAddr, p.HTTPAddr = st.ClientAddr, st.HTTPAddr
	if leaderLast > st.RaftAppliedIndex {
		p.Lag = leaderLast - st.RaftAppliedIndex
	}
	return p
}
