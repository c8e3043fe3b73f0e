package cluster

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRemoteAttempt_EndsWhenTheLeaderChanges(t *testing.T) {
	n := &Node{leaderChange: newLeaderChanges(), shutdownCh: make(chan struct{})}
	changed := n.leaderChange.Changed()
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := n.remoteAttempt(context.Background(), changed, func(ctx context.Context) (any, error) {
			close(started)
			<-ctx.Done() // a leader that never answers
			return nil, ctx.Err()
		})
		done <- err
	}()
	<-started
	n.leaderChange.fire()
	err := <-done
	if !errors.Is(err, ErrNotLeader) || !retryable(err) {
		t.Fatalf("attempt cut short by a leader change returned %v, want a retryable ErrNotLeader", err)
	}
	select {
	case <-n.leaderChange.Changed():
		t.Fatal("the next change channel is already closed")
	default:
	}
}

func TestRemoteAttempt_KeepsTheCallersCancellation(t *testing.T) {
	n := &Node{leaderChange: newLeaderChanges(), shutdownCh: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err := n.remoteAttempt(ctx, n.leaderChange.Changed(), func(ctx context.Context) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("attempt whose caller gave up returned %v, want the caller's deadline", err)
	}
}
