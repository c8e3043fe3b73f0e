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
