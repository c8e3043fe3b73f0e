package cluster

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/raftns/raftns/internal/deadline"
)

// catchUp returns once this member has applied what a leader's answer
// reflects: index, the entry the leader named (LeaderReply.Index), or, from
// a leader of a release that names none (index 0), the leader's read
// index. It is bounded by ctx and by ForwardHold, the bound of a write's
// wait; a member that did not catch up in time fails with
// ErrNotVisibleYet, since its reads would not show the outcome. An entry
// already applied costs one atomic load.
func (n *Node) catchUp(ctx context.Context, index uint64) error {
	if index != 0 && n.fsm.AppliedIndex() >= index {
		return nil
	}
	ctx, cancel := deadline.WithTimeout(ctx, n.cfg.ForwardHold)
	defer cancel()
	var err error
	if index == 0 {
		err = n.LinearizableRead(ctx)
	} else {
		err = n.fsm.WaitApplied(ctx, index)
	}
	if err != nil {
		return fmt.Errorf("%w (index %d): %v", ErrNotVisibleYet, index, err)
	}
	return nil
}

// visibilityFloor is the highest log index of a write this member answered
// without waiting for its own apply (Apply and Register through a leader
// elsewhere). Reads it serves after that answer wait for the floor
// (AwaitVisible), so read-your-writes holds without the write's answer
// waiting for the follower's apply.
type visibilityFloor struct{ index atomic.Uint64 }

// raise makes index the floor unless a higher one is already set.
func (f *visibilityFloor) raise(index uint64) {
	for {
		cur := f.index.Load()
		if index <= cur || f.index.CompareAndSwap(cur, index) {
			return
		}
	}
}

// Visible reports whether this member's state shows every write it has
// answered: one or two atomic loads. A read that finds it false waits with
// AwaitVisible.
func (n *Node) Visible() bool {
	floor := n.visible.index.Load()
	return floor == 0 || n.fsm.AppliedIndex() >= floor
}

// AwaitVisible returns once this member's state shows every write it has
// answered, so that a read served after it shows them too (read-your-writes
// on this member). Every local read of client-visible state calls it first.
// It fails with ErrNotVisibleYet when the member does not catch up within
// ForwardHold.
func (n *Node) AwaitVisible(ctx context.Context) error {
	floor := n.visible.index.Load()
	if floor == 0 {
		return nil
	}
	return n.catchUp(ctx, floor)
}
