package events

import (
	"fmt"
	"sort"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/raftobs"
)

// configPollInterval is how often WatchRaft compares the configuration.
const configPollInterval = time.Second

// WatchRaft records leader changes (from a Raft observer) and membership
// changes (by comparing the configuration every second) into ring until
// stop is closed. It runs on every member, so each member's ring tells what
// that member saw.
func WatchRaft(r *raft.Raft, ring *Ring, stop <-chan struct{}) {
	leaders, stopObserving := raftobs.Leaders(r)
	defer stopObserving()
	tick := time.NewTicker(configPollInterval)
	defer tick.Stop()
	var known map[raft.ServerID]raft.Server
	for {
		select {
		case <-stop:
			return
		case o := <-leaders:
			lo := o.Data.(raft.LeaderObservation)
			ring.Add(leaderEvent(string(lo.LeaderID), string(lo.LeaderAddr), r.CurrentTerm()))
		case <-tick.C:
			fut := r.GetConfiguration()
			if fut.Error() != nil {
				continue
			}
			now := serversByID(fut.Configuration())
			if known != nil {
				for _, e := range membershipEvents(known, now, r.CurrentTerm()) {
					ring.Add(e)
				}
			}
			known = now
		}
	}
}

func leaderEvent(id, addr string, term uint64) Event {
	e := Event{Kind: KindLeaderChanged, Member: id, Term: term}
	if id == "" {
		e.Text = fmt.Sprintf("no leader (term %d)", term)
	} else {
		e.Text = fmt.Sprintf("leader is %s at %s (term %d)", id, addr, term)
	}
	return e
}

func serversByID(c raft.Configuration) map[raft.ServerID]raft.Server {
	m := make(map[raft.ServerID]raft.Server, len(c.Servers))
	for _, s := range c.Servers {
		m[s.ID] = s
	}
	return m
}

// membershipEvents describes how the configuration went from before to
// after, in member-ID order.
func membershipEvents(before, after map[raft.ServerID]raft.Server, term uint64) []Event {
	var out []Event
	for id, s := range after {
		old, ok := before[id]
		switch {
		case !ok:
			out = append(out, Event{Kind: KindMemberAdded, Member: string(id), Addr: string(s.Address), Term: term,
				Text: fmt.Sprintf("member %s (%s) added as %s", id, s.Address, s.Suffrage)})
		case old.Suffrage != s.Suffrage || old.Address != s.Address:
			out = append(out, Event{Kind: KindMemberChanged, Member: string(id), Addr: string(s.Address), Term: term,
				Text: fmt.Sprintf("member %s is now %s at %s (was %s at %s)", id, s.Suffrage, s.Address, old.Suffrage, old.Address)})
		}
	}
	for id, s := range before {
		if _, ok := after[id]; !ok {
			out = append(out, Event{Kind: KindMemberRemoved, Member: string(id), Addr: string(s.Address), Term: term,
				Text: fmt.Sprintf("member %s (%s) removed", id, s.Address)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Member < out[j].Member })
	return out
}
