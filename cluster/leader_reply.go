package cluster

import (
	"errors"
	"fmt"

	"github.com/raftns/raftns/transport/lane"
)

// LeaderReply is the answer of every operation a member runs on the
// leader's behalf of another (lane.LeaderReply; the forward lane carries it
// too).
type LeaderReply = lane.LeaderReply

// setReply records err in the reply.
func setReply(r *LeaderReply, err error) {
	switch {
	case err == nil:
		r.ErrKind, r.Err = lane.KindNone, ""
	case errors.Is(err, ErrNotLeader), errors.Is(err, ErrShutdown):
		// A leader shutting down is, to the caller, no longer the leader:
		// it retries with the next one.
		r.ErrKind, r.Err = lane.KindNotLeader, err.Error()
	case errors.Is(err, ErrLeaderNotReady):
		r.ErrKind, r.Err = lane.KindNotReady, err.Error()
	case errors.Is(err, ErrOutcomeUnknown):
		r.ErrKind, r.Err = lane.KindOutcomeUnknown, err.Error()
	case errors.Is(err, ErrUnknownMember):
		r.ErrKind, r.Err = lane.KindUnknownMember, err.Error()
	default:
		r.ErrKind, r.Err = lane.KindOther, err.Error()
	}
}

// replyErr turns the reply's error back into an error the retry policy
// knows.
func replyErr(r *LeaderReply) error {
	switch r.ErrKind {
	case lane.KindNone:
		return nil
	case lane.KindNotLeader:
		return fmt.Errorf("%w (leader said: %s)", ErrNotLeader, r.Err)
	case lane.KindNotReady:
		return fmt.Errorf("%w (leader said: %s)", ErrLeaderNotReady, r.Err)
	case lane.KindOutcomeUnknown:
		return fmt.Errorf("%w (leader said: %s)", ErrOutcomeUnknown, r.Err)
	case lane.KindUnknownMember:
		return fmt.Errorf("%w (leader said: %s)", ErrUnknownMember, r.Err)
	}
	return errors.New(r.Err)
}
