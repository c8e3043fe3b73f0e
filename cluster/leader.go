package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/raftns/raftns/transport/lane"
)

// leaderOp is an operation that must run on the leader: a write, a
// membership change or a leadership transfer. Every one reaches the leader
// the same way (docs/contributors/design.md, "Reaching the leader"): run locally when
// this member leads, otherwise sent once to the leader over the cluster
// port, whose handler runs it locally and never sends it on (hop limit one).
type leaderOp struct {
	// method is the RPC the leader serves the operation under; its reply is
	// a LeaderReply.
	method string
	// args builds the RPC arguments; it is called at most once, and only if
	// the operation has to travel.
	args func() (any, error)
	// local runs the operation on this member as the leader.
	local func(ctx context.Context) (any, error)
	// decode turns the reply's Result back into what local returns; nil
	// when the operation answers nothing.
	decode func([]byte) (any, error)
	// visible makes a member that sent the operation to the leader wait,
	// before it returns, until it has applied what the leader's answer
	// reflects (catchUp): its own reads then show the outcome.
	visible bool
	// visibleLater, in place of visible, answers at once and raises this
	// member's visibility floor to the leader's index instead: the reads
	// it serves after the answer wait (AwaitVisible), the answer does not.
	visibleLater bool
}

// onLeader runs op on the leader. While there is no leader, or the one
// asked is no longer it or not ready yet, or an attempt's outcome is
// unknown, it retries with jittered backoff for up to ForwardHold (or ctx's
// deadline if sooner), then fails: with ErrOutcomeUnknown if any attempt
// may have been applied, else with ErrNoLeader (nothing was applied). A
// leader that answers with any other error is final. Retrying a write whose
// outcome is unknown is safe because it carries its request id.
func (n *Node) onLeader(ctx context.Context, op leaderOp) (any, error) {
	args := sync.OnceValues(op.args)
	return n.retryLeader(ctx, func(ctx context.Context, leaderAddr string, lastTry bool, cut lane.Cut) (any, error) {
		if leaderAddr == "" {
			return op.local(ctx)
		}
		a, err := args()
		if err != nil {
			return nil, err
		}
		return n.callLeader(ctx, leaderAddr, op, a, lastTry, cut)
	})
}

// callLeader sends op to the leader once, until cut. The last try uses a
// fresh connection, in case the pooled one is half-open. A forwarded write
// takes the forward lane unless the leader does not speak it.
func (n *Node) callLeader(ctx context.Context, leaderAddr string, op leaderOp, args any, fresh bool, cut lane.Cut) (any, error) {
	write := op.method == forwardMethod
	if write {
		n.stats.ForwardedOut.Add(1)
	}
	var reply LeaderReply
	err := lane.ErrUnsupported
	if fa, ok := args.(*ForwardArgs); ok && write {
		reply, err = n.lanes.Forward(ctx, cut, leaderAddr, fa.Command, fresh)
	}
	if errors.Is(err, lane.ErrUnsupported) {
		actx, cancel := cut.Context(ctx)
		err = n.pool.call(actx, leaderAddr, op.method, args, &reply, fresh)
		if err != nil && ctx.Err() == nil && context.Cause(actx) == lane.ErrCut {
			err = fmt.Errorf("%w (%v)", lane.ErrCut, err)
		}
		cancel(nil)
	}
	if err != nil {
		if write {
			n.stats.ForwardFailures.Add(1)
		}
		if errors.Is(err, errNotSent) || errors.Is(err, lane.ErrNotSent) {
			return nil, fmt.Errorf("%w: %v", ErrNotLeader, err)
		}
		if errors.Is(err, lane.ErrCut) {
			return nil, err
		}
		// The request left: the leader may have applied it.
		return nil, fmt.Errorf("%w: %v", ErrOutcomeUnknown, err)
	}
	if err := replyErr(&reply); err != nil {
		return nil, err
	}
	switch {
	case op.visibleLater && reply.Index != 0:
		n.visible.raise(reply.Index)
	case op.visible || op.visibleLater:
		if err := n.catchUp(ctx, reply.Index); err != nil {
			return nil, err
		}
	}
	if op.decode == nil {
		return nil, nil
	}
	return op.decode(reply.Result)
}

// leaderAttempt performs one try: leaderAddr is empty when this member is
// the leader, else the leader's cluster address; a try at a remote leader
// ends early, failing with lane.ErrCut, once cut comes.
type leaderAttempt func(ctx context.Context, leaderAddr string, lastTry bool, cut lane.Cut) (any, error)

// retryLeader is the one retry policy for reaching the leader.
func (n *Node) retryLeader(ctx context.Context, attempt leaderAttempt) (any, error) {
	hold := time.Now().Add(n.cfg.ForwardHold)
	if dl, ok := ctx.Deadline(); ok && dl.Before(hold) {
		hold = dl
	}
	backoff := 20 * time.Millisecond
	var mayHaveApplied bool
	for {
		lastTry := time.Until(hold) < 2*backoff
		var res any
		err := ErrNoLeader
		// Taken before the leader is read, so that a change in between
		// is not missed.
		changed := n.leaders.changed.Changed()
		leaderID, leaderAddr := n.Leader()
		switch {
		case n.IsLeader():
			res, err = attempt(ctx, "", lastTry, lane.Cut{})
		case leaderAddr != "" && leaderID != n.cfg.ID:
			res, err = n.remoteAttempt(ctx, changed, func(ctx context.Context, cut lane.Cut) (any, error) {
				return attempt(ctx, leaderAddr, lastTry, cut)
			})
		}
		if err == nil || !retryable(err) {
			return res, err
		}
		// A try cut short after it left may have been applied all the same.
		mayHaveApplied = mayHaveApplied || errors.Is(err, ErrOutcomeUnknown) || errors.Is(err, lane.ErrCut)
		if time.Now().After(hold) || ctx.Err() != nil {
			if mayHaveApplied {
				return nil, fmt.Errorf("%w: no leader confirmed it in time (last error: %v)", ErrOutcomeUnknown, err)
			}
			return nil, fmt.Errorf("%w (last error: %v)", ErrNoLeader, err)
		}
		select {
		case <-time.After(jitter(backoff)):
		case <-changed:
			// A new leader (possibly this member): try it at once.
		case <-ctx.Done():
		case <-n.shutdownCh:
			return nil, ErrShutdown
		}
		backoff = min(backoff*2, 500*time.Millisecond)
	}
}

// remoteAttempt runs one try at a remote leader, cut short when this
// member's view of the leader changes or when the leader has been silent
// for leaderSilenceLimit. A try cut short is retryable; its error still
// wraps lane.ErrCut when the try had left, so that retryLeader counts it
// as possibly applied.
func (n *Node) remoteAttempt(ctx context.Context, changed <-chan struct{}, try func(context.Context, lane.Cut) (any, error)) (any, error) {
	res, err := try(ctx, lane.Cut{Changed: changed, Silent: n.leaders.quiet.Changed()})
	if err != nil && ctx.Err() == nil && errors.Is(err, lane.ErrCut) {
		return nil, fmt.Errorf("%w: %w", ErrNotLeader, err)
	}
	return res, err
}

func retryable(err error) bool {
	return errors.Is(err, ErrNotLeader) || errors.Is(err, ErrNoLeader) || errors.Is(err, ErrLeaderNotReady) ||
		errors.Is(err, ErrOutcomeUnknown)
}
