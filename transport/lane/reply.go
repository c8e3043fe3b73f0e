package lane

// LeaderReply is the answer of every operation a member runs on the
// leader's behalf of another: the error, if any, by kind (so the caller
// knows whether to retry with the next leader) and the operation's result.
type LeaderReply struct {
	ErrKind string
	Err     string
	// Result is the operation's answer: fsm.EncodeResult's bytes for a
	// write, the outcome text for a join.
	Result []byte
	// Index is, in a successful answer, the log index up to which the
	// leader's state machine had applied when it answered (for a write it
	// proposed, the write's own entry): the member that asked shows the
	// outcome once it has applied as far. A member of a release before it
	// sends 0 and ignores it (net/rpc's gob skips a field the receiver
	// does not have; the forward lane carries it from version 2).
	Index uint64
}

// Error kinds carried in LeaderReply.
const (
	KindNone           = ""
	KindNotLeader      = "not-leader"
	KindNotReady       = "not-ready"
	KindOutcomeUnknown = "outcome-unknown"
	KindOther          = "error"
	// KindUnknownMember travels only over the RPC channel; the forward
	// lane sends it as KindOther (forwarded writes never fail with it).
	KindUnknownMember = "unknown-member"
)
