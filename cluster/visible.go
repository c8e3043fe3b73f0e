package cluster

import (
	"context"
	"fmt"

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
