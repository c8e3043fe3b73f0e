package cluster

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
)

// Leadership lifecycle (docs/contributors/design.md, "Taking office").
const (
	barrierTimeout  = 10 * time.Second
	barrierAttempts = 3
	leaderHousekeep = time.Second
)

// tenure takes and leaves office as Raft's leadership signal says and
// keeps whether this member is the leader in office (docs/contributors/design.md,
// "Taking office"). A term of office runs serve on a goroutine of its own;
// leaving office clears the office flag and calls demote first, then stops
// serve and waits for it.
type tenure struct {
	raft   *raft.Raft
	logger hclog.Logger
	// notify is Raft's leadership signal (raft.Config.NotifyCh).
	notify chan bool
	// again asks the monitor to take office again (after a restore); it
	// answers once the old term of office has been revoked.
	again chan chan struct{}
	// changes counts the leadership signals.
	changes  *atomic.Uint64
	shutdown <-chan struct{}
	// serve runs a term of office until its stop channel closes; demote
	// drops what a term kept (the lease table).
	serve  func(stop chan struct{})
	demote func()

	// ready is set once the leader has barriered and rebuilt liveness;
	// readyCh is closed at that moment.
	mu      sync.Mutex
	ready   atomic.Bool
	readyCh chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// inOffice reports whether this member is a leader that has taken office.
func (l *tenure) inOffice() bool { return l.ready.Load() }

// monitor is the single consumer of Raft's leadership signal. It makes no
// Raft calls itself; it starts and stops the term of office. A true after
// a true means leadership was lost and regained in between, so the leader
// duties are revoked and established again.
func (l *tenure) monitor() {
	for {
		select {
		case isLeader := <-l.notify:
			l.changes.Add(1)
			l.leave()
			if isLeader {
				l.logger.Info("gained leadership", "term", l.raft.CurrentTerm())
				l.take()
			} else {
				l.logger.Info("lost leadership", "term", l.raft.CurrentTerm())
			}
		case revoked := <-l.again:
			l.leave()
			if l.raft.State() == raft.Leader {
				l.logger.Info("taking office again", "term", l.raft.CurrentTerm())
				l.take()
			}
			close(revoked)
		case <-l.shutdown:
			return
		}
	}
}

// takeAgain has the leader revoke its duties and take office again, as
// after an election, and waits until it is back in office: a restore
// replaces the tables liveness was built from.
func (l *tenure) takeAgain(timeout time.Duration) error {
	if err := askLoop(l.again, l.shutdown); err != nil {
		return err
	}
	expired := make(chan struct{})
	deadline := time.AfterFunc(timeout, func() { close(expired) })
	defer deadline.Stop()
	return l.waitReady(expired)
}

func (l *tenure) take() {
	l.mu.Lock()
	defer l.mu.Unlock()
	stop, done := make(chan struct{}), make(chan struct{})
	l.stop, l.done = stop, done
	go func() {
		defer close(done)
		l.serve(stop)
	}()
}

// enter marks the term of office begun: writes are accepted from now on.
func (l *tenure) enter() {
	l.mu.Lock()
	l.ready.Store(true)
	close(l.readyCh)
	l.mu.Unlock()
}

// leave revokes leader duties: the office flag is cleared first so no new
// write or expiry starts, the lease table is discarded, then the term's
// loop stops.
func (l *tenure) leave() {
	l.ready.Store(false)
	l.demote()
	l.mu.Lock()
	stop, done := l.stop, l.done
	l.stop, l.done = nil, nil
	l.mu.Unlock()
	if stop == nil {
		return
	}
	close(stop)
	<-done
	// Again: the loop may have taken office after the first revocation.
	l.ready.Store(false)
	l.demote()
	l.mu.Lock()
	l.readyCh = make(chan struct{})
	l.mu.Unlock()
}

// barrier waits until every entry of earlier terms is applied. On repeated
// failure while still leader it hands leadership over instead of serving
// from a state it cannot vouch for (Consul #3545).
func (l *tenure) barrier(stop chan struct{}) bool {
	backoff := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := waitFuture(l.raft.Barrier(barrierTimeout), stop, l.shutdown)
		if errors.Is(err, errWaitStopped) {
			return false
		}
		if err == nil {
			return true
		}
		l.logger.Error("barrier failed", "attempt", attempt, "error", err)
		if l.raft.State() != raft.Leader {
			return false
		}
		if attempt >= barrierAttempts {
			l.logger.Error("giving up leadership after repeated barrier failures")
			if err := l.raft.LeadershipTransfer().Error(); err != nil {
				l.logger.Error("leadership transfer failed", "error", err)
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

// readyFor is waitReady until ctx is done. It asks ctx for its Done
// channel only when it has to wait, which a write's context
// (internal/deadline) arms its timer for.
func (l *tenure) readyFor(ctx context.Context) error {
	if l.inOffice() {
		return nil
	}
	return l.waitReady(ctx.Done())
}

// waitReady blocks until this member is a ready leader, it stops being
// leader, or done closes.
func (l *tenure) waitReady(done <-chan struct{}) error {
	for {
		if l.ready.Load() {
			return nil
		}
		if l.raft.State() != raft.Leader {
			return ErrNotLeader
		}
		l.mu.Lock()
		ch := l.readyCh
		l.mu.Unlock()
		select {
		case <-ch:
		case <-done:
			return ErrLeaderNotReady
		case <-l.shutdown:
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
