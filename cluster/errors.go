package cluster

import "errors"

// Sentinel errors of the cluster package.
var (
	// ErrNotLeader is returned by leader-only operations on a follower.
	ErrNotLeader = errors.New("cluster: not leader")
	// ErrNoLeader is returned when no leader was known within the hold
	// bound. For a write it means that no attempt reached a leader that
	// could have applied it: nothing was applied.
	ErrNoLeader = errors.New("cluster: no leader")
	// ErrOutcomeUnknown is returned for a write that failed after an
	// attempt reached a leader (an answer lost, leadership lost while the
	// entry was in flight): it may or may not have been applied. Retrying
	// it is safe; the request id makes it apply at most once.
	ErrOutcomeUnknown = errors.New("cluster: write outcome unknown")
	// ErrNotVisibleYet is returned for a write the leader applied but this
	// member did not apply itself within the write's deadline: the write
	// took effect, but this member's reads do not show it yet, so it must
	// not answer SUCCESS.
	ErrNotVisibleYet = errors.New("cluster: write applied by the leader, not yet visible on this member")
	// ErrLeaderNotReady is returned when the leader did not finish taking
	// office (Barrier and liveness rebuild) within the request's deadline.
	ErrLeaderNotReady = errors.New("cluster: leader not ready")
	// ErrNotForwardable refuses, on the leader, a command a follower may
	// not forward (one the leader alone decides, such as an expiry).
	ErrNotForwardable = errors.New("cluster: command may not be forwarded by a follower")
	// ErrShutdown is returned after Shutdown.
	ErrShutdown = errors.New("cluster: shut down")
	// ErrQuorumAtRisk refuses a membership change that could lose quorum.
	ErrQuorumAtRisk = errors.New("cluster: change would leave too few connected voters")
	// ErrUnknownMember is returned for a member ID not in the configuration.
	ErrUnknownMember = errors.New("cluster: unknown member")
	// ErrBadBackup refuses a backup that is damaged or too large.
	ErrBadBackup = errors.New("cluster: refusing backup")
	// ErrNotReady is returned by what a member answers only while it
	// serves reads (the address service).
	ErrNotReady = errors.New("cluster: member not ready")
	// ErrRemoved is returned by a member that was removed from the
	// cluster: it no longer takes part.
	ErrRemoved = errors.New("cluster: removed from the cluster")
	// ErrBadConfig wraps configuration errors.
	ErrBadConfig = errors.New("cluster: bad config")
)
