package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/raftns/raftns/transport/lane"
)

func TestRemoteAttempt_EndsWhenTheLeaderChanges(t *testing.T) {
	n := &Node{leaders: newLeaderSignals(), shutdownCh: make(chan struct{})}
	changed := n.leaders.changed.Changed()
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := n.remoteAttempt(context.Background(), changed, func(ctx context.Context, cut lane.Cut) (any, error) {
			ctx, cancel := cut.Context(ctx)
			defer cancel(nil)
			close(started)
			<-ctx.Done() // a leader that never answers
			return nil, context.Cause(ctx)
		})
		done <- err
	}()
	<-started
	n.leaders.changed.fire()
	err := <-done
	if !errors.Is(err, ErrNotLeader) || !retryable(err) {
		t.Fatalf("attempt cut short by a leader change returned %v, want a retryable ErrNotLeader", err)
	}
	select {
	case <-n.leaders.changed.Changed():
		t.Fatal("the next change channel is already closed")
	default:
	}
}

func TestRemoteAttempt_KeepsTheCallersCancellation(t *testing.T) {
	n := &Node{leaders: newLeaderSignals(), shutdownCh: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := n.remoteAttempt(ctx, n.leaders.changed.Changed(), func(ctx context.Context, cut lane.Cut) (any, error) {
		ctx, cancel := cut.Context(ctx)
		defer cancel(nil)
		<-ctx.Done()
		return nil, context.Cause(ctx)
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("attempt whose caller gave up returned %v, want the caller's deadline", err)
	}
}

// A try is cut when the member finds the leader silent, even one that
// began during the silence (the silence is announced at every look).
func TestRemoteAttempt_EndsWhenTheLeaderIsFoundSilent(t *testing.T) {
	n := &Node{leaders: newLeaderSignals(), shutdownCh: make(chan struct{})}
	n.leaders.quiet.fire() // a look before the try began
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := n.remoteAttempt(context.Background(), n.leaders.changed.Changed(), func(_ context.Context, cut lane.Cut) (any, error) {
			close(started)
			<-cut.Silent
			return nil, lane.ErrCut
		})
		done <- err
	}()
	<-started
	select {
	case err := <-done:
		t.Fatalf("the try ended before the next look: %v", err)
	default:
	}
	n.leaders.quiet.fire()
	// It still says it was cut: a try that left may have been applied.
	if err := <-done; !errors.Is(err, ErrNotLeader) || !retryable(err) || !errors.Is(err, lane.ErrCut) {
		t.Fatalf("attempt cut short by the leader's silence returned %v, want a retryable ErrNotLeader wrapping lane.ErrCut", err)
	}
}
