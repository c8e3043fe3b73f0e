package cluster

import (
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/raft"
)

// ClientAddresses is the address service's answer (docs/operators/operations.md,
// "The address service"): the RocketMQ client addresses of the voters that
// serve reads and are not being removed, ordered by member id, so that
// every member gives the same list while they agree on the facts.
// Readiness is the leader's view (readyView); with a leader of a release
// that reports none, every voter counts. It fails with ErrNotReady while
// this member does not serve reads itself, or when no voter could be
// listed: a caller then keeps the list it has.
func (n *Node) ClientAddresses() ([]string, error) {
	if ready, reason := n.Ready(); !ready {
		return nil, fmt.Errorf("%w: %s", ErrNotReady, reason)
	}
	conf, err := currentConfiguration(n.raft)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotReady, err)
	}
	readyIDs, known := n.ready.followerReady()
	if n.tenure.inOffice() {
		readyIDs, known = n.ready.leaderReady(n.cfg.ID, serverIDs(conf), time.Now()), true
	}
	ready := map[string]bool{}
	for _, id := range readyIDs {
		ready[id] = true
	}
	clientAddr := map[string]string{}
	for _, m := range n.fsm.Members() {
		clientAddr[m.ID] = m.ClientAddr
	}
	var ids []string
	for _, s := range conf.Servers {
		id := string(s.ID)
		_, draining := n.fsm.Draining(id)
		if s.Suffrage == raft.Voter && !draining && (ready[id] || !known) && clientAddr[id] != "" {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: no voter is ready to be listed", ErrNotReady)
	}
	sort.Strings(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = clientAddr[id]
	}
	return out, nil
}
