package cluster

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/raft"
)

// Leadership lifecycle (docs/design.md, "Taking office").
const (
	barrierTimeout  = 10 * time.Second
	barrierAttempts = 3
	leaderHousekeep = time.Second
)

// monitorLeadership is the single consumer of Raft's leadership signal. It
// makes no Raft calls itself; it starts and stops the leader loop. A true
// after a true means leadership was lost and regained in between, so the
// leader duties are revoked and established again.
func (n *Node) monitorLeadership() {
	for {
		select {
		case isLeader := <-n.notifyCh:
			n.stats.LeaderChanges.Add(1)
			n.stopLeaderLoop()
			if isLeader {
				n.logger.Info("gained leadership", "term", n.raft.CurrentTerm())
				n.startLeaderLoop()
			} else {
				n.logger.Info("lost leadership", "term", n.raft.CurrentTerm())
			}
		case revoked := <-n.reoffice:
			n.stopLeaderLoop()
			if n.IsLeader() {
				n.logger.Info("taking office again", "term", n.raft.CurrentTerm())
				n.startLeaderLoop()
			}
			close(revoked)
		case <-n.shutdownCh:
			return
		}
	}
}

// takeOfficeAgain has the leader revoke its duties and take office again,
// as after an election, and waits until it is back in office and its
// readiness says so: a restore replaces the tables liveness was built
// from, and the caller's next read must not find the member unready.
func (n *Node) takeOfficeAgain(timeout time.Duration) error {
	if err := askLoop(n.reoffice, n.shutdownCh); err != nil {
		return err
	}
	expired := make(chan struct{})
	deadline := time.AfterFunc(timeout, func() { close(expired) })
	defer deadline.Stop()
	if err := n.waitLeaderReady(expired); err != nil {
		return err
	}
	return n.readiness.refresh()
}

func (n *Node) startLeaderLoop() {
	n.leaderMu.Lock()
	defer n.leaderMu.Unlock()
	stop, done := make(chan struct{}), make(chan struct{})
	n.leaderStop, n.leaderDone = stop, done
	go func() {
		defer close(done)
		n.leaderLoop(stop)
	}()
}

// stopLeaderLoop revokes leader duties: leaderReady is cleared first so no
// new write or expiry starts, the lease table is discarded, then the loop
// stops.
func (n *Node) stopLeaderLoop() {
	n.leaderReady.Store(false)
	n.lessor.Demote()
	n.leaderMu.Lock()
	stop, done := n.leaderStop, n.leaderDone
	n.leaderStop, n.leaderDone = nil, nil
	n.leaderMu.Unlock()
	if stop == nil {
		return
	}
	close(stop)
	<-done
	// Again: the loop may have taken office after the first revocation.
	n.leaderReady.Store(false)
	n.lessor.Demote()
	n.leaderMu.Lock()
	n.readyCh = make(chan struct{})
	n.leaderMu.Unlock()
}

// leaderLoop takes office in order: Barrier, rebuild liveness with every
// registered broker just heard from, start the expiry scan, accept writes.
func (n *Node) leaderLoop(stop chan struct{}) {
	if !n.barrier(stop) {
		return
	}
	n.lessor.Promote(n.raft.LastIndex())

	scan := time.NewTicker(n.cfg.ScanInterval)
	defer scan.Stop()
	house := time.NewTicker(leaderHousekeep)
	defer house.Stop()

	n.leaderMu.Lock()
	n.leaderReady.Store(true)
	close(n.readyCh)
	n.leaderMu.Unlock()
	n.logger.Info("leader ready", "brokers", len(n.fsm.Registrations()))
	n.members.reconcileMemberDirectory(true)
	refresh := time.NewTicker(n.cfg.DirectoryRefresh)
	defer refresh.Stop()
	leave := n.offices.take(n, n.lessor.Epoch())
	defer leave()
	for {
		select {
		case <-stop:
			return
		case <-scan.C:
			n.expiry.Scan()
		case <-n.expiry.ScanRequests():
			n.expiry.Scan()
		case <-house.C:
			n.members.promoteCaughtUpNonvoters()
			n.members.reconcileMemberDirectory(false)
		case <-refresh.C:
			// Re-read every member's addresses, so one restarted with new
			// client or admin addresses is republished.
			n.members.reconcileMemberDirectory(true)
		}
	}
}

// barrier waits until every entry of earlier terms is applied. On repeated
// failure while still leader it hands leadership over instead of serving
// from a state it cannot vouch for (Consul #3545).
func (n *Node) barrier(stop chan struct{}) bool {
	backoff := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := waitFuture(n.raft.Barrier(barrierTimeout), stop, n.shutdownCh)
		if errors.Is(err, errWaitStopped) {
			return false
		}
		if err == nil {
			return true
		}
		n.logger.Error("barrier failed", "attempt", attempt, "error", err)
		if n.raft.State() != raft.Leader {
			return false
		}
		if attempt >= barrierAttempts {
			n.logger.Error("giving up leadership after repeated barrier failures")
			if err := n.raft.LeadershipTransfer().Error(); err != nil {
				n.logger.Error("leadership transfer failed", "error", err)
			}
			return false
		}
		select {
		case <-stop:
			return false
		case <-time.After(jitter(backoff)):
			backoff *= 2
		}
	}
}

// leaderReadyFor is waitLeaderReady until ctx is done. It asks ctx for its
// Done channel only when it has to wait, which a write's context
// (internal/deadline) arms its timer for.
func (n *Node) leaderReadyFor(ctx context.Context) error {
	if n.leaderReady.Load() {
		return nil
	}
	return n.waitLeaderReady(ctx.Done())
}

// waitLeaderReady blocks until this member is a ready leader, it stops being
// leader, or done closes.
func (n *Node) waitLeaderReady(done <-chan struct{}) error {
	for {
		if n.leaderReady.Load() {
			return nil
		}
		if !n.IsLeader() {
			return ErrNotLeader
		}
		n.leaderMu.Lock()
		ch := n.readyCh
		n.leaderMu.Unlock()
		select {
		case <-ch:
		case <-done:
			return ErrLeaderNotReady
		case <-n.shutdownCh:
			return ErrShutdown
		case <-time.After(50 * time.Millisecond):
			// re-check leadership; the ready channel is replaced on revoke
		}
	}
}

// errWaitStopped is waitFuture's answer when it stopped waiting.
var errWaitStopped = errors.New("stopped waiting for raft")

// waitFuture waits for f's answer unless stop or shutdown closes first
// (errWaitStopped). hashicorp/raft never answers a barrier that was queued
// while Raft shut down, so a wait on Error alone can block the leader loop,
// and everything that stops it, forever; the waiting goroutine left behind
// ends when an answer does come.
func waitFuture(f raft.Future, stop, shutdown <-chan struct{}) error {
	answer := make(chan error, 1)
	go func() { answer <- f.Error() }()
	select {
	case err := <-answer:
		return err
	case <-stop:
		return errWaitStopped
	case <-shutdown:
		return errWaitStopped
	}
}
