package deadline

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// isArmed reports whether ctx, a WithTimeout context, has armed its timer.
func isArmed(ctx context.Context) bool {
	c := ctx.(*lazy)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.armed != nil
}

func TestWithTimeout_DeadlineWithoutTimer(t *testing.T) {
	before := time.Now()
	ctx, cancel := WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dl, ok := ctx.Deadline()
	if !ok || dl.Before(before.Add(time.Minute)) || dl.After(time.Now().Add(time.Minute)) {
		t.Fatalf("deadline %v %v, want a minute from the call", dl, ok)
	}
	if isArmed(ctx) {
		t.Fatal("asking for the deadline armed the timer")
	}
	if ctx.Value("k") != nil {
		t.Fatal("a value nobody set")
	}
	if isArmed(ctx) {
		t.Fatal("asking for a value armed the timer")
	}
}

func TestWithTimeout_ParentDeadlineWhenEarlier(t *testing.T) {
	parent, cancelParent := context.WithTimeout(context.Background(), time.Second)
	defer cancelParent()
	want, _ := parent.Deadline()
	ctx, cancel := WithTimeout(parent, time.Hour)
	defer cancel()
	if got, _ := ctx.Deadline(); !got.Equal(want) {
		t.Fatalf("deadline %v, want the parent's %v", got, want)
	}
}

func TestWithTimeout_DoneAtTheDeadline(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := ctx.Err(); err != nil {
		t.Fatalf("err before the deadline: %v", err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not done ten seconds after a 20 ms deadline")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("err %v, want DeadlineExceeded", ctx.Err())
	}
}

func TestWithTimeout_CancelBeforeAnyWait(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), time.Minute)
	cancel()
	if isArmed(ctx) {
		t.Fatal("cancel armed the timer")
	}
	select {
	case <-ctx.Done():
	default:
		t.Fatal("not done after cancel")
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("err %v, want Canceled", ctx.Err())
	}
}

func TestWithTimeout_CancelAfterAWait(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), time.Minute)
	done := ctx.Done()
	cancel()
	select {
	case <-done:
	default:
		t.Fatal("the channel a waiter holds is not closed by cancel")
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("err %v, want Canceled", ctx.Err())
	}
}

func TestWithTimeout_FollowsItsParent(t *testing.T) {
	type key struct{}
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	ctx, cancel := WithTimeout(parent, time.Minute)
	defer cancel()
	if ctx.Value(key{}) != "v" {
		t.Fatal("the parent's value is lost")
	}
	cancelParent()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not done after the parent was cancelled")
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("err %v, want Canceled", ctx.Err())
	}
	if ctx.Value(key{}) != "v" {
		t.Fatal("the parent's value is lost once armed")
	}
}

// TestWithTimeout_ChildrenNeedNoGoroutine derives many contexts from one
// and checks the context package cancels them with it directly, as for a
// context.WithTimeout parent, rather than with a goroutine per child.
func TestWithTimeout_ChildrenNeedNoGoroutine(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), time.Minute)
	before := runtime.NumGoroutine()
	children := make([]context.Context, 100)
	for i := range children {
		var cancelChild context.CancelFunc
		children[i], cancelChild = context.WithCancel(ctx)
		defer cancelChild()
	}
	if after := runtime.NumGoroutine(); after-before >= len(children) {
		t.Fatalf("%d goroutines for %d children", after-before, len(children))
	}
	cancel()
	for i, child := range children {
		select {
		case <-child.Done():
		default:
			t.Fatalf("child %d not cancelled with its parent", i)
		}
	}
}

func TestWithTimeout_ConcurrentWaitAndCancel(t *testing.T) {
	for range 100 {
		ctx, cancel := WithTimeout(context.Background(), time.Minute)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				<-ctx.Done()
				if ctx.Err() == nil {
					t.Error("done without an error")
				}
			})
		}
		cancel()
		wg.Wait()
	}
}
