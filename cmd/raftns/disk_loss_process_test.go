package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// diskLossRuns is how many disk-loss sequences TestProcess_DiskLoss runs;
// each run takes the next variant and the next member as the one that
// loses its disk. `go test ./cmd/raftns -run DiskLoss -args -disk-loss.runs=20`.
var diskLossRuns = flag.Int("disk-loss.runs", 1, "disk-loss sequences to run in TestProcess_DiskLoss")

// diskLossNS is the KV namespace of the acknowledged writes.
const diskLossNS = "disk-loss"

// diskRoles are the parts members play in one sequence: L leads when it
// starts, Fa is down while a write is acknowledged by L and Fb.
type diskRoles struct{ L, Fa, Fb *proc }

// diskLossVariant is one sequence: it acknowledges a write, loses a disk,
// and restarts the members in its own order; it returns the member whose
// disk was lost.
type diskLossVariant struct {
	name string
	run  func(s *diskLossScene, r diskRoles) *proc
}

var diskLossVariants = []diskLossVariant{
	{"wiped follower restarted after the other", func(s *diskLossScene, r diskRoles) *proc {
		s.ackWithout(r.Fa, r.L)
		s.kill(r.L, r.Fb)
		s.wipe(r.Fb)
		s.start(r.Fa)
		s.start(r.Fb)
		s.noLeaderWhile(r.Fa, r.Fb)
		s.start(r.L)
		return r.Fb
	}},
	{"wiped follower restarted before the other", func(s *diskLossScene, r diskRoles) *proc {
		s.ackWithout(r.Fa, r.L)
		s.kill(r.L, r.Fb)
		s.wipe(r.Fb)
		s.start(r.Fb)
		s.start(r.Fa)
		s.noLeaderWhile(r.Fa, r.Fb)
		s.start(r.L)
		return r.Fb
	}},
	{"wiped leader", func(s *diskLossScene, r diskRoles) *proc {
		s.ackWithout(r.Fa, r.L)
		s.kill(r.L, r.Fb)
		s.wipe(r.L)
		s.start(r.Fa)
		s.start(r.L)
		s.noLeaderWhile(r.Fa, r.L)
		s.start(r.Fb)
		return r.L
	}},
	{"wiped during an election", func(s *diskLossScene, r diskRoles) *proc {
		s.ackWithout(r.Fa, r.L)
		s.kill(r.L)
		s.start(r.Fa)
		// Fa campaigns; Fb, which holds the write, is lost mid-election.
		s.kill(r.Fb)
		s.wipe(r.Fb)
		s.start(r.Fb)
		s.noLeaderWhile(r.Fa, r.Fb)
		s.start(r.L)
		return r.Fb
	}},
}

// TestProcess_DiskLoss runs the sequences in which a member that lost its
// disk used to elect a member without an acknowledged write: after each,
// every write acknowledged so far is on every member, the members hold
// the same data, and the member that lost its disk is a voter again by
// itself, on a new storage identity.
func TestProcess_DiskLoss(t *testing.T) {
	ps := startCluster(t, 3, "--promote-after", "1s")
	s := &diskLossScene{t: t, ps: ps, c: newClient(t), ctx: ctxT(t, time.Duration(*diskLossRuns+1)*5*time.Minute)}
	s.settle(nil, "")
	for run := range *diskLossRuns {
		v := diskLossVariants[run%len(diskLossVariants)]
		roles := s.roles(run)
		before := s.storageID(roles.L, roles.Fa, roles.Fb)
		t.Logf("run %d: %s; leader %s, down while acknowledged %s, holding the write %s", run+1, v.name, roles.L.ID, roles.Fa.ID, roles.Fb.ID)
		wiped := v.run(s, roles)
		s.settle(wiped, before[wiped.ID])
	}
	t.Logf("%d runs: %d acknowledged writes, none lost", *diskLossRuns, len(s.acked))
}

// diskLossScene is the cluster of TestProcess_DiskLoss and the writes it
// acknowledged.
type diskLossScene struct {
	t     *testing.T
	ps    []*proc
	c     *nsclient.Client
	ctx   context.Context
	acked []string
}

// roles puts the member run%3 in the part of the one that loses its disk
// in the variant run takes, moving leadership where that needs.
func (s *diskLossScene) roles(run int) diskRoles {
	s.t.Helper()
	victim := s.ps[run%len(s.ps)]
	wantLeader := victim.ID
	if diskLossVariants[run%len(diskLossVariants)].name != "wiped leader" {
		wantLeader = s.ps[(run+1)%len(s.ps)].ID
	}
	leader := leaderOf(s.t, s.ps)
	if leader.ID != wantLeader {
		resp, err := leader.Do(s.ctx, "POST", "/v1/leader/transfer?to="+wantLeader)
		if err != nil {
			s.t.Fatal(err)
		}
		resp.Body.Close()
		poll.For(s.t, time.Minute, "leadership on "+wantLeader, func() bool {
			l := leaderOf(s.t, s.ps)
			return l.ID == wantLeader
		})
		leader = leaderOf(s.t, s.ps)
	}
	var others []*proc
	for _, p := range s.ps {
		if p != leader {
			others = append(others, p)
		}
	}
	if others[0] == victim {
		return diskRoles{L: leader, Fa: others[1], Fb: others[0]}
	}
	return diskRoles{L: leader, Fa: others[0], Fb: others[1]}
}

// ackWithout kills down, then has leader acknowledge a write, which the
// two members left then hold alone.
func (s *diskLossScene) ackWithout(down, leader *proc) {
	s.t.Helper()
	down.Kill()
	key := fmt.Sprintf("k%d", len(s.acked)+1)
	poll.For(s.t, time.Minute, "write "+key+" acknowledged", func() bool {
		return s.c.PutKV(s.ctx, leader.ClientAddr, diskLossNS, key, "v-"+key) == nil
	})
	s.acked = append(s.acked, key)
}

func (s *diskLossScene) kill(ps ...*proc) {
	for _, p := range ps {
		p.Kill()
	}
}

// wipe loses a stopped member's disk: its data dir is removed.
func (s *diskLossScene) wipe(p *proc) {
	s.t.Helper()
	if err := os.RemoveAll(p.DataDir); err != nil {
		s.t.Fatal(err)
	}
}

func (s *diskLossScene) start(p *proc) {
	s.t.Helper()
	if err := p.Start(); err != nil {
		s.t.Fatal(err)
	}
}

// noLeaderWhile checks that the member that kept its disk, alone with the
// one that lost it, elects no one: until the wiped member says it waits and
// the other has started elections twice since it started, neither may lead.
func (s *diskLossScene) noLeaderWhile(kept, wiped *proc) {
	s.t.Helper()
	base := strings.Count(kept.Log(), "entering candidate state")
	poll.For(s.t, 2*time.Minute, wiped.ID+" waiting for re-admission and "+kept.ID+" campaigning in vain", func() bool {
		for _, p := range []*proc{kept, wiped} {
			if st, ok := p.status(); ok && st.State == "Leader" {
				s.t.Fatalf("%s leads while the member holding the acknowledged write is down", p.ID)
			}
		}
		st, ok := wiped.status()
		return ok && st.Admission == adminapi.AdmissionAwaiting &&
			strings.Count(kept.Log(), "entering candidate state") >= base+2
	})
}

// storageID reads each member's storage identity.
func (s *diskLossScene) storageID(ps ...*proc) map[string]string {
	s.t.Helper()
	out := map[string]string{}
	for _, p := range ps {
		st, ok := p.status()
		if !ok || st.StorageID == "" {
			s.t.Fatalf("%s reports no storage identity (%v)", p.ID, ok)
		}
		out[p.ID] = st.StorageID
	}
	return out
}

// settle waits until every member is a ready voter that votes, then
// checks that every acknowledged write is on every member and that the
// members hold the same data; wiped, when set, must run on a new storage
// identity.
func (s *diskLossScene) settle(wiped *proc, oldStorage string) {
	s.t.Helper()
	for _, p := range s.ps {
		p.waitReady()
	}
	leader := leaderOf(s.t, s.ps)
	poll.For(s.t, 2*time.Minute, "every member a voter that votes", func() bool {
		for _, p := range s.ps {
			st, ok := p.status()
			if !ok || st.Admission != adminapi.AdmissionAdmitted || !st.Ready {
				return false
			}
		}
		peers, err := peersOf(s.ctx, leader)
		if err != nil || len(peers) != len(s.ps) {
			return false
		}
		for _, p := range peers {
			if p.Suffrage != "Voter" {
				return false
			}
		}
		return true
	})
	if wiped != nil {
		if id := s.storageID(wiped)[wiped.ID]; id == oldStorage {
			s.t.Fatalf("%s lost its disk but kept storage identity %s", wiped.ID, id)
		}
	}
	if len(s.acked) == 0 {
		return
	}
	var want map[string]string
	for _, p := range s.ps {
		var got map[string]string
		poll.For(s.t, time.Minute, p.ID+" holding every acknowledged write", func() bool {
			kv, err := s.c.GetKVList(s.ctx, p.ClientAddr, diskLossNS)
			if err != nil {
				return false
			}
			for _, k := range s.acked {
				if kv[k] != "v-"+k {
					return false
				}
			}
			got = kv
			return true
		})
		if want == nil {
			want = got
		} else if fmt.Sprint(got) != fmt.Sprint(want) {
			s.t.Fatalf("%s holds %v, another member %v", p.ID, got, want)
		}
	}
}

// peersOf reads GET /v1/peers from a member.
func peersOf(ctx context.Context, p *proc) ([]adminapi.PeerStatus, error) {
	resp, err := p.Get(ctx, "/v1/peers")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var peers []adminapi.PeerStatus
	if err := json.NewDecoder(resp.Body).Decode(&peers); err != nil {
		return nil, err
	}
	return peers, nil
}

// TestProcess_DiskLossFiveMembersTwoDisks loses two disks of five members
// at different times. A write is acknowledged by three members (two are
// down); the leader and both other holders go down, and the two holders
// come back on empty disks one after the other, with the two members
// that lack the write: those four must elect no one. Once the leader is
// back the write is on every member, and both wiped members are voters
// again by themselves.
func TestProcess_DiskLossFiveMembersTwoDisks(t *testing.T) {
	ps := startCluster(t, 5, "--promote-after", "1s")
	s := &diskLossScene{t: t, ps: ps, c: newClient(t), ctx: ctxT(t, 5*time.Minute)}
	leader := leaderOf(t, ps)
	others := survivors(ps, leader)
	a, b, c, d := others[0], others[1], others[2], others[3]
	before := s.storageID(a, b)
	c.Kill()
	s.ackWithout(d, leader)
	s.kill(leader, a, b)
	s.wipe(a)
	s.start(c)
	s.start(d)
	s.start(a)
	s.noLeaderWhile(c, a)
	s.wipe(b)
	s.start(b)
	s.noLeaderWhile(d, b)
	for _, p := range []*proc{a, b, c, d} {
		if st, ok := p.status(); ok && st.State == "Leader" {
			t.Fatalf("%s leads while the only member holding the acknowledged write that kept its disk is down", p.ID)
		}
	}
	s.start(leader)
	s.settle(a, before[a.ID])
	if id := s.storageID(b)[b.ID]; id == before[b.ID] {
		t.Fatalf("%s lost its disk but kept storage identity %s", b.ID, id)
	}
}
