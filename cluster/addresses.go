package cluster

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm/state"
)

// ClientAddresses is the address service's answer (docs/operators/operations.md,
// "The address service"): the RocketMQ client addresses of the voters that
// serve reads and are not being removed, ordered by member id, so that
// every member gives the same list while they agree on the facts.
// Readiness is the leader's view (readyView); with a leader of a release
// that reports none, every voter counts. It fails with ErrNotReady while
// this member does not serve reads itself, or when no voter could be
// listed: a caller then keeps the list it has.
func (n *Node) ClientAddresses() ([]string, error) { return n.ClientAddressesFor("") }

// ClientAddressesFor is the address service's answer for a caller in zone
// (docs/operators/operations.md, "Several zones"). For a zone no member of
// the directory carries, the empty zone among them, it is ClientAddresses.
// For a known zone it lists the ready members of that zone, voters and
// non-voters, then the other ready members, each part ordered by member
// id; with Config.AddressZoneOnly it lists the zone's members alone, unless
// none of them is ready. Zones match ignoring case.
func (n *Node) ClientAddressesFor(zone string) ([]string, error) {
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
	listed := map[string]state.Member{}
	zoneKnown := false
	for _, m := range n.fsm.Members() {
		listed[m.ID] = m
		zoneKnown = zoneKnown || zone != "" && strings.EqualFold(m.Zone, zone)
	}
	var local, others []string
	for _, s := range conf.Servers {
		id := string(s.ID)
		_, draining := n.fsm.Draining(id)
		if draining || !(ready[id] || !known) || listed[id].ClientAddr == "" {
			continue
		}
		switch {
		case zoneKnown && strings.EqualFold(listed[id].Zone, zone):
			local = append(local, id)
		case s.Suffrage == raft.Voter || zoneKnown:
			others = append(others, id)
		}
	}
	if zoneKnown && n.cfg.AddressZoneOnly && len(local) > 0 {
		others = nil
	}
	if len(local)+len(others) == 0 {
		return nil, fmt.Errorf("%w: no member is ready to be listed", ErrNotReady)
	}
	sort.Strings(local)
	sort.Strings(others)
	out := make([]string, 0, len(local)+len(others))
	for _, id := range append(local, others...) {
		out = append(out, listed[id].ClientAddr)
	}
	// The directory refuses a second member with one address, but an
	// entry published before a clash was noticed must not be listed twice.
	return distinctAddrs(out), nil
}
