package cluster

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// decideEvery spaces the rounds of questions a member on new storage asks
// its initial peers.
const decideEvery = 500 * time.Millisecond

// knowsCluster reads a peer's status: a peer holding entries beyond the
// bootstrap configuration, waiting to be re-admitted itself, or removed,
// knows a cluster exists.
func knowsCluster(st adminapi.Status) bool {
	return st.LastIndex > 1 || st.Admission == adminapi.AdmissionAwaiting || st.Membership == adminapi.MembershipRemoved
}

// decideFormation runs on a member that starts on new storage with initial
// peers, and never forms a cluster silently over one that exists: it asks
// every initial peer over the cluster port whether it holds a cluster. When
// one does, or a leader reaches this member first, it waits to be
// re-admitted (admission.go). When every peer answers that it holds
// none, this is a first formation and the member bootstraps as every
// initial member does. While some peer does not answer it waits, and says
// for whom.
func (f formation) decideFormation(r *raft.Raft, stop <-chan struct{}) {
	f.admission.wait(adminapi.AdmissionDeciding, "the initial peers to say whether they hold a cluster")
	lastLog := time.Time{}
	for {
		if r.LastIndex() > 0 {
			f.admission.wait(adminapi.AdmissionAwaiting, "a leader to re-admit it: a leader of the existing cluster reached it")
			return
		}
		silent, holder := f.askPeers()
		switch {
		case holder != "":
			f.admission.wait(adminapi.AdmissionAwaiting,
				fmt.Sprintf("a leader to re-admit it: member %s holds the cluster, so this member's storage is new and it must not vote yet", holder))
			return
		case len(silent) == 0:
			if err := f.form(r, f.initialVoters()); err != nil {
				f.logger.Error("forming the cluster failed", "error", err)
			}
			return
		}
		if time.Since(lastLog) > 10*time.Second {
			lastLog = time.Now()
			f.logger.Warn("this member's data dir is new: it forms the cluster only once every initial peer answers that it holds none; "+
				"if every member lost its data, restore a backup (raftnsctl snapshot restore) or start every member with --new-cluster",
				"waiting_for", strings.Join(silent, ","))
		}
		f.admission.wait(adminapi.AdmissionDeciding, "initial peers to answer: "+strings.Join(silent, ","))
		if !poll.Sleep(decideEvery, stop) {
			return
		}
	}
}

// askPeers asks every other initial peer for its status: the peers that
// did not answer, and one that holds a cluster ("" when none).
func (f formation) askPeers() (silent []string, holder string) {
	for _, p := range f.cfg.Peers {
		if p.ID == f.cfg.ID {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
		st, err := f.status(ctx, p.Addr)
		cancel()
		switch {
		case err != nil:
			silent = append(silent, p.ID+"="+p.Addr)
		case knowsCluster(st):
			return nil, p.ID
		}
	}
	sort.Strings(silent)
	return silent, ""
}
