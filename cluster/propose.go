package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// proposer is the leader's side of writes: it proposes the commands this
// member takes as the leader and the ones followers forward to it, once
// the leader is in office, and is the only path to raft.Apply.
type proposer struct {
	raft   *raft.Raft
	fsm    *fsm.FSM
	office *tenure
	// lessor hears from a broker whose registration reaches the leader.
	lessor       *liveness.Lessor
	stats        *Stats
	applyTimeout time.Duration
	// notice tells followers the commit index of changes answered for
	// them.
	notice commitNotice
	// audit stamps the leader's own audited decisions.
	audit *auditor
	// logger and splitDropsWarned: a split registration that cannot
	// delete unlisted topics below the cluster version is logged once.
	logger           hclog.Logger
	splitDropsWarned atomic.Bool
}

// forwarded runs a follower's encoded write on this member as the
// leader and encodes the answer for the trip back, with the index of the
// entry it proposed (0 when it proposed none). Only commands the
// registry marks forwardable are accepted. The entry is decoded once, here
// (the FSM applies what was decoded when Raft applies the entry on this
// member): a registration to check that it still changes something, any
// other command so that one that does not decode never reaches the log. The
// bytes are proposed as they came.
func (p *proposer) forwarded(ctx context.Context, buf []byte) ([]byte, uint64, error) {
	decoded, err := fsm.DecodeProposal(buf)
	if err != nil {
		return nil, 0, err
	}
	t := decoded.Type()
	if !fsm.IsForwardable(t) {
		return nil, 0, fmt.Errorf("%w: %s", ErrNotForwardable, t)
	}
	var res any
	var index uint64
	if cmd, ok := decoded.Command().(*state.RegisterBroker); ok {
		res, index, err = p.register(ctx, proposedRegistration{cmd: cmd, entry: buf, decoded: &decoded})
	} else {
		res, index, err = p.propose(ctx, t, buf, &decoded)
	}
	if err != nil {
		return nil, 0, err
	}
	enc, err := fsm.EncodeResult(t, res)
	return enc, index, err
}

// register applies a registration on the leader unless, by now, it
// would change nothing (a duplicate from another member got there first);
// it does not plan the registration again when the plan made at
// reg.planned still holds. The entry is proposed as is unless it must be
// split, in which case the parts go without a request id (a registration
// that changes nothing is never written, so a retried one is harmless).
// It returns the index of the last entry it proposed, 0 when none.
func (p *proposer) register(ctx context.Context, reg proposedRegistration) (state.RegisterResult, uint64, error) {
	if err := p.office.readyFor(ctx); err != nil {
		return state.RegisterResult{}, 0, err
	}
	cmd := reg.cmd
	p.lessor.Heard(cmd.Key(), liveness.ConnNone)
	if !reg.planned.still(p.fsm) && !p.fsm.WouldChange(cmd) {
		p.stats.RegistersDeduped.Add(1)
		return p.fsm.RegisterResult(cmd), 0, nil
	}
	var res any
	var index uint64
	var err error
	if len(reg.entry) == 0 || len(reg.entry) > fsm.MaxEntrySize {
		var r state.RegisterResult
		if r, index, err = p.registerSplit(ctx, cmd); err != nil {
			return state.RegisterResult{}, 0, err
		}
		res = r
	} else if res, index, err = p.propose(ctx, fsm.RegisterBrokerType, reg.entry, reg.decoded); err != nil {
		return state.RegisterResult{}, 0, err
	}
	if index == 0 {
		p.stats.RegistersDeduped.Add(1)
	} else {
		p.stats.RegistersWritten.Add(1)
	}
	r, _ := res.(state.RegisterResult)
	return r, index, nil
}

// apply proposes a command on this member, which must be a ready leader.
func (p *proposer) apply(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	buf, err := fsm.Encode(t, cmd)
	if err != nil {
		return nil, err
	}
	if buf, err = p.audit.stamp(ctx, t, buf, CallerLeader); err != nil {
		return nil, err
	}
	return p.applyEncoded(ctx, t, buf)
}

// applyEncoded proposes an encoded entry.
func (p *proposer) applyEncoded(ctx context.Context, t fsm.CommandType, buf []byte) (any, error) {
	res, _, err := p.propose(ctx, t, buf, nil)
	return res, err
}

// propose proposes an encoded entry, telling the FSM what it
// decodes to when decoded is not nil, and returns the FSM's answer and the
// entry's index; it is the only path to raft.Apply.
func (p *proposer) propose(ctx context.Context, t fsm.CommandType, buf []byte, decoded *fsm.Proposal) (any, uint64, error) {
	if err := p.office.readyFor(ctx); err != nil {
		return nil, 0, err
	}
	if f := fsm.NeededFeature(t); !f.IsZero() {
		if err := p.fsm.Gate().Check(f); err != nil {
			return nil, 0, err
		}
	}
	if decoded != nil {
		p.fsm.Expect(buf, *decoded)
		defer p.fsm.Forget(buf)
	}
	timeout := p.applyTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	fut := p.raft.Apply(buf, timeout)
	err := fut.Error()
	if err != nil {
		if lerr := leadershipErr(err); lerr != nil {
			return nil, 0, lerr
		}
		return nil, 0, fmt.Errorf("apply %s: %w", t, err)
	}
	if e, ok := fut.Response().(error); ok {
		return nil, 0, e
	}
	return fut.Response(), fut.Index(), nil
}

// leadershipErr maps raft's answer to an entry this member asked it to
// append (a command, a configuration change) when leadership was the
// trouble: ErrNotLeader when the entry was refused before it entered the
// log, ErrOutcomeUnknown when it is in the log, maybe replicated, and a
// later leader may commit it. Any other error gives nil.
func leadershipErr(err error) error {
	switch {
	case errors.Is(err, raft.ErrNotLeader), errors.Is(err, raft.ErrLeadershipTransferInProgress),
		errors.Is(err, raft.ErrEnqueueTimeout):
		return fmt.Errorf("%w: %v", ErrNotLeader, err)
	case errors.Is(err, raft.ErrLeadershipLost), errors.Is(err, raft.ErrRaftShutdown):
		return fmt.Errorf("%w: %v", ErrOutcomeUnknown, err)
	}
	return nil
}
