package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// Fault kinds.
const (
	FaultKill       = "kill"       // SIGKILL a member, restart it
	FaultPause      = "pause"      // SIGSTOP a member past the election timeout, SIGCONT
	FaultPartition  = "partition"  // cut all traffic between two sides
	FaultMembership = "membership" // add a member under load, later remove it
	FaultDiskFull   = "disk-full"  // fill the small disk of one member
	FaultDiskLoss   = "disk-loss"  // SIGKILL a member, remove its data dir, restart it
)

// AllFaults lists every fault kind.
var AllFaults = []string{FaultKill, FaultPause, FaultPartition, FaultMembership, FaultDiskFull, FaultDiskLoss}

// nemesis injects a seeded schedule of faults.
type nemesis struct {
	rng     *rand.Rand
	cluster *procCluster
	hist    *history
	kinds   []string
	cycle   []string
	stop    <-chan struct{}
	joins   int
	// notes are unexpected events (a member that exited by itself).
	notes  []string
	counts map[string]int
}

// between returns a random duration in [lo, hi).
func (n *nemesis) between(lo, hi time.Duration) time.Duration {
	return lo + time.Duration(n.rng.Int64N(int64(hi-lo)))
}

// run injects faults until d has passed or stop closes.
func (n *nemesis) run(d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if !poll.Sleep(n.between(time.Second, 2*time.Second), n.stop) {
			return
		}
		if len(n.cycle) == 0 {
			// Every kind once per cycle, in a random order, so that every
			// run long enough for one cycle sees every kind.
			n.cycle = append([]string{}, n.kinds...)
			n.rng.Shuffle(len(n.cycle), func(i, j int) { n.cycle[i], n.cycle[j] = n.cycle[j], n.cycle[i] })
		}
		kind := n.cycle[0]
		n.cycle = n.cycle[1:]
		start := n.hist.now()
		detail, err := n.inject(kind)
		if err != nil {
			detail += " (error: " + err.Error() + ")"
			n.notes = append(n.notes, kind+": "+err.Error())
		}
		n.hist.addFault(fault{Kind: kind, Detail: detail, Start: start, End: n.hist.now()})
		n.counts[kind]++
		n.reviveExited()
	}
}

func (n *nemesis) inject(kind string) (string, error) {
	switch kind {
	case FaultKill:
		return n.kill()
	case FaultPause:
		return n.pause()
	case FaultPartition:
		return n.partition()
	case FaultMembership:
		return n.membership()
	case FaultDiskFull:
		return n.diskFull()
	case FaultDiskLoss:
		return n.diskLoss()
	}
	return "", fmt.Errorf("unknown fault %q", kind)
}

// target picks the leader with probability p, else a random member.
func (n *nemesis) target(p float64) *member {
	if n.rng.Float64() < p {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if l := n.cluster.leader(ctx); l != nil {
			return l
		}
	}
	ms := n.cluster.current()
	return ms[n.rng.IntN(len(ms))]
}

func (n *nemesis) hold(lo, hi time.Duration) time.Duration {
	d := n.between(lo, hi)
	poll.Sleep(d, n.stop)
	return d
}

func (n *nemesis) kill() (string, error) {
	m := n.target(0.5)
	n.cluster.kill(m)
	d := n.hold(time.Second, 3*time.Second)
	return fmt.Sprintf("SIGKILL %s, restart after %v", m.ID, d.Round(time.Millisecond)), n.cluster.restart(m)
}

func (n *nemesis) pause() (string, error) {
	m := n.target(0.6)
	if err := n.cluster.pause(m); err != nil {
		return "SIGSTOP " + m.ID, err
	}
	d := n.hold(2*time.Second, 4*time.Second)
	n.cluster.cont(m)
	return fmt.Sprintf("SIGSTOP %s for %v", m.ID, d.Round(time.Millisecond)), nil
}

func (n *nemesis) partition() (string, error) {
	ids := n.cluster.ids()
	n.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	size := 1 + n.rng.IntN((len(ids)-1)/2)
	side := ids[:size]
	if l := n.target(0.5); l != nil && n.rng.IntN(2) == 0 {
		side = []string{l.ID}
	}
	n.cluster.nw.partition(side, ids)
	d := n.hold(3*time.Second, 6*time.Second)
	n.cluster.nw.heal()
	return fmt.Sprintf("cut %s from the rest for %v", strings.Join(side, ","), d.Round(time.Millisecond)), nil
}

// membership starts a new member that joins through a running member's
// proxy, keeps it for a while under load (long enough, sometimes, to be
// promoted to voter), then removes it through the admin API and stops it.
func (n *nemesis) membership() (string, error) {
	n.joins++
	id := fmt.Sprintf("j%d", n.joins)
	m, err := n.cluster.prepare(id, 0)
	if err != nil {
		return "add " + id, err
	}
	via := n.target(0)
	if err := n.cluster.start(m, "--join", via.proxy.addr()); err != nil {
		return "add " + id, err
	}
	d := n.hold(4*time.Second, 14*time.Second)
	desc := fmt.Sprintf("add %s (join via %s), remove after %v", id, via.ID, d.Round(time.Millisecond))
	var last error
	err = poll.Until(context.Background(), 20*time.Second, 200*time.Millisecond, "removal of "+id, func() (bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for _, o := range n.cluster.current() {
			if o.ID == id || o.paused || o.Exited() {
				continue
			}
			if last = n.cluster.removePeer(ctx, o, id); last == nil {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		err = fmt.Errorf("%w (last refusal: %v)", err, last)
	}
	n.cluster.drop(id)
	n.cluster.kill(m)
	return desc, err
}

func (n *nemesis) diskFull() (string, error) {
	var m *member
	for _, o := range n.cluster.current() {
		if o.disk != nil {
			m = o
		}
	}
	if m == nil {
		return "no member has a small disk", nil
	}
	if err := m.disk.fill(); err != nil {
		m.disk.free()
		return "fill disk of " + m.ID, err
	}
	d := n.hold(3*time.Second, 6*time.Second)
	return fmt.Sprintf("disk of %s full for %v", m.ID, d.Round(time.Millisecond)), m.disk.free()
}

// diskLoss loses a member's disk: it is killed, its data dir removed, and
// it is restarted with the command line it always had, on an empty data
// dir. It must not vote until the cluster re-admitted it, and is back as a
// voter by itself; a member on the small disk (a mount) or one that joined
// during the run is left alone. Like an operator replacing one disk at a
// time, it waits until a member that lost its disk before votes again:
// two of three members without their data is a lost quorum.
func (n *nemesis) diskLoss() (string, error) {
	if err := poll.Until(context.Background(), 60*time.Second, 200*time.Millisecond, "every member voting", n.allVoting); err != nil {
		return "disk loss skipped: a member that lost its disk before is not re-admitted yet", nil
	}
	var candidates []*member
	for _, o := range n.cluster.current() {
		if o.disk == nil && !strings.HasPrefix(o.ID, "j") {
			candidates = append(candidates, o)
		}
	}
	if len(candidates) == 0 {
		return "no member whose disk may be lost", nil
	}
	m := candidates[n.rng.IntN(len(candidates))]
	if l := n.target(0.4); l != nil && l.disk == nil && !strings.HasPrefix(l.ID, "j") {
		m = l
	}
	n.cluster.kill(m)
	if err := os.RemoveAll(m.DataDir); err != nil {
		return "remove the data dir of " + m.ID, err
	}
	d := n.hold(time.Second, 3*time.Second)
	return fmt.Sprintf("SIGKILL %s, remove its data dir, restart it empty after %v", m.ID, d.Round(time.Millisecond)), n.cluster.restart(m)
}

// allVoting reports whether every running member votes (none awaits
// re-admission on new storage).
func (n *nemesis) allVoting() (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, m := range n.cluster.current() {
		if m.paused || m.Exited() {
			continue
		}
		if st, err := m.Status(ctx); err != nil || st.Admission != "" {
			return false, nil
		}
	}
	return true, nil
}

// reviveExited restarts members whose process ended by itself and notes it.
func (n *nemesis) reviveExited() {
	for _, m := range n.cluster.current() {
		if m.Exited() {
			n.notes = append(n.notes, fmt.Sprintf("%s exited by itself (code %d); restarted", m.ID, m.ExitCode()))
			n.cluster.restart(m)
		}
	}
}

// healAll ends every fault.
func (n *nemesis) healAll() {
	n.cluster.nw.heal()
	for _, m := range n.cluster.current() {
		n.cluster.cont(m)
		if m.disk != nil {
			m.disk.free()
		}
	}
	n.reviveExited()
}
