package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/raftns/raftns/internal/adminapi"
)

// ErrAddressInUse is returned when a member advertises a client or
// cluster address that another member already advertises. The address
// service would then hand one member's address out twice, and every broker
// and client would land on that one member.
var ErrAddressInUse = errors.New("address already used by another member")

// addrHolder is what addressClash knows of a member: its id and the
// addresses it advertises.
type addrHolder struct {
	ID, ClientAddr, ClusterAddr string
}

// addressClash reports, naming both members, whether other advertises the
// client or cluster address of self; nil when they differ or are the same
// member.
func addressClash(self, other addrHolder) error {
	if other.ID == self.ID {
		return nil
	}
	switch {
	case self.ClientAddr != "" && other.ClientAddr == self.ClientAddr:
		return fmt.Errorf("%w: member %s advertises client address %s, which member %s (cluster address %s) already advertises; "+
			"every member needs its own: set --advertise-client-addr (advertiseClientAddr) of %s to its own address",
			ErrAddressInUse, self.ID, self.ClientAddr, other.ID, other.ClusterAddr, self.ID)
	case self.ClusterAddr != "" && other.ClusterAddr == self.ClusterAddr:
		return fmt.Errorf("%w: member %s advertises cluster address %s, which member %s already advertises; "+
			"every member needs its own: set --cluster-addr (or --cluster-advertise) of %s to its own address",
			ErrAddressInUse, self.ID, self.ClusterAddr, other.ID, self.ID)
	}
	return nil
}

// CheckUniqueAddrs refuses this member when another member already
// advertises its client or cluster address. It asks every other member it
// knows at start (the initial peers, the configuration and the members it
// joins) for their addresses; one that does not answer in statusProbeTimeout is passed over
// (when it starts later, its own check finds this member). The leader's
// directory and admission checks cover a member that slips through. A
// member process calls it once New returned, before it serves clients.
func (n *Node) CheckUniqueAddrs() error {
	self := addrHolder{ID: n.cfg.ID, ClientAddr: n.cfg.ClientAddr, ClusterAddr: n.cfg.ClusterAddr}
	known := make([]Peer, 0, len(n.cfg.Peers))
	known = append(known, n.cfg.Peers...)
	if conf, err := currentConfiguration(n.raft); err == nil {
		for _, s := range conf.Servers {
			known = append(known, Peer{ID: string(s.ID), Addr: string(s.Address)})
		}
	}
	var targets []string
	for _, p := range known {
		if p.ID == self.ID {
			continue
		}
		if err := addressClash(self, addrHolder{ID: p.ID, ClusterAddr: p.Addr}); err != nil {
			return err
		}
		targets = append(targets, p.Addr)
	}
	targets = distinctAddrs(append(targets, n.cfg.Join...))
	ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
	defer cancel()
	answers := make([]adminapi.Status, len(targets))
	var wg sync.WaitGroup
	for i, addr := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := n.memberStatus(ctx, addr)
			if err == nil {
				answers[i] = st
			}
		}()
	}
	wg.Wait()
	for _, st := range answers {
		if st.ID == "" {
			continue
		}
		if err := addressClash(self, addrHolder{ID: st.ID, ClientAddr: st.ClientAddr, ClusterAddr: st.ClusterAddr}); err != nil {
			return err
		}
	}
	return nil
}

// distinctAddrs drops every address listed before, keeping the first.
func distinctAddrs(addrs []string) []string {
	seen := make(map[string]bool, len(addrs))
	out := addrs[:0:0]
	for _, a := range addrs {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}
