package cluster

import (
	"errors"
	"testing"
	"time"
)

// silentFuture is a raft.Future whose answer never comes unless answer is
// sent, like a barrier queued while Raft shut down.
type silentFuture struct{ answer chan error }

func (f silentFuture) Error() error { return <-f.answer }

func TestWaitFuture_StopOrShutdownEndsAWaitRaftNeverAnswers(t *testing.T) {
	for _, which := range []string{"stop", "shutdown"} {
		t.Run(which, func(t *testing.T) {
			stop, shutdown := make(chan struct{}), make(chan struct{})
			got := make(chan error, 1)
			go func() { got <- waitFuture(silentFuture{make(chan error)}, stop, shutdown) }()
			if which == "stop" {
				close(stop)
			} else {
				close(shutdown)
			}
			select {
			case err := <-got:
				if !errors.Is(err, errWaitStopped) {
					t.Fatalf("waitFuture = %v, want errWaitStopped", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("waitFuture still waiting for an answer that never comes after " + which)
			}
		})
	}
}

func TestWaitFuture_ReturnsTheAnswer(t *testing.T) {
	want := errors.New("leadership lost")
	f := silentFuture{make(chan error, 1)}
	f.answer <- want
	if err := waitFuture(f, make(chan struct{}), make(chan struct{})); err != want {
		t.Fatalf("waitFuture = %v, want %v", err, want)
	}
}
