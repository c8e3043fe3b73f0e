package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/feature"
)

// AuditConfig bounds the replicated audit trail (docs/operators/operations.md,
// "Audit trail"). The member that takes a change stamps these bounds on
// its entry, so give every member the same ones.
type AuditConfig struct {
	// Off makes this member stamp nothing: the changes it takes and the
	// leader's own decisions while it leads leave no record.
	Off bool
	// MaxRecords is how many records the trail keeps (0: the default).
	MaxRecords int
	// MaxAge drops records older than this before the newest one
	// (0: the default; negative: no age bound).
	MaxAge time.Duration
}

// Audit trail defaults: ten thousand records or thirty days.
const (
	DefaultAuditMaxRecords = 10_000
	DefaultAuditMaxAge     = 30 * 24 * time.Hour
)

func (c AuditConfig) validate() error {
	if c.MaxRecords < 0 || c.MaxRecords > state.MaxAuditRecords {
		return fmt.Errorf("%w: audit max records %d not in 0..%d", ErrBadConfig, c.MaxRecords, state.MaxAuditRecords)
	}
	return nil
}

// Caller is who asked for a change and from where, as the port that took
// the request proved it: an ACL access key or "admin-token", else
// "anonymous"; the remote address (the PROXY-protocol one when present).
type Caller struct {
	Who  string
	From string
	// Via is the member that took the request when another one proxied
	// it here; empty means this member.
	Via string
}

// Callers of changes that are not a client's.
const (
	// CallerAnonymous is a caller that proved no identity.
	CallerAnonymous = "anonymous"
	// CallerLeader stamps the leader's own decisions (expiries, controller
	// elections, broker ids decided on the leader's side, the first
	// settings of the cluster).
	CallerLeader = "raftns"
)

type callerKey struct{}

// WithCaller returns ctx carrying c, for the audit stamp of the change
// made with it.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// callerOf returns the caller ctx carries, else one with who.
func callerOf(ctx context.Context, who string) Caller {
	if c, ok := callerIn(ctx); ok {
		return c
	}
	return Caller{Who: who}
}

// callerIn returns the caller ctx carries, if it names one.
func callerIn(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c.Who != ""
}

// passedOn is the caller ctx carries as the leader is to stamp it for a
// call this member passes on to it: with this member as the one that took
// the request, unless another member proxied it here. Nil when ctx names
// no caller.
func (n *Node) passedOn(ctx context.Context) *Caller {
	c, ok := callerIn(ctx)
	if !ok {
		return nil
	}
	c.Via = cmp.Or(c.Via, n.cfg.ID)
	return &c
}

// errBadCaller refuses a call whose caller the leader could not stamp.
var errBadCaller = errors.New("cluster: bad caller")

// check refuses a caller another member passed on that no audit stamp can
// carry: a field longer than state.MaxAuditStampField, or no member named.
func (c *Caller) check() error {
	switch {
	case len(c.Who) > state.MaxAuditStampField || len(c.From) > state.MaxAuditStampField || len(c.Via) > state.MaxAuditStampField:
		return fmt.Errorf("%w: a field is longer than %d bytes", errBadCaller, state.MaxAuditStampField)
	case c.Via == "":
		return fmt.Errorf("%w: no member took the request", errBadCaller)
	}
	return nil
}

// auditor stamps this member's audited entries and hears the records the
// FSM appends: a counter per kind on every member, a log line on the
// leader.
type auditor struct {
	cfg    AuditConfig
	id     string
	wall   func() time.Time
	gate   func() *feature.Gate
	logger hclog.Logger
	raft   atomic.Pointer[raft.Raft]
	// replayed is the last log index this member held when it started:
	// records up to it are replays of entries a leader logged before.
	replayed atomic.Uint64
	counts   map[string]*atomic.Uint64
}

func newAuditor(cfg *Config, f *fsm.FSM, logger hclog.Logger) *auditor {
	a := &auditor{cfg: cfg.Audit, id: cfg.ID, wall: clockOr(cfg.WallClock), gate: f.Gate, logger: logger.Named("audit"),
		counts: map[string]*atomic.Uint64{}}
	if a.cfg.MaxRecords == 0 {
		a.cfg.MaxRecords = DefaultAuditMaxRecords
	}
	if a.cfg.MaxAge == 0 {
		a.cfg.MaxAge = DefaultAuditMaxAge
	}
	for _, k := range append(state.AuditKinds, "other") {
		a.counts[k] = new(atomic.Uint64)
	}
	return a
}

// stamp wraps entry, of command type t, in an audit envelope when t is
// audited, the trail is on here and the cluster version allows it.
// defaultWho names the caller when ctx carries none.
func (a *auditor) stamp(ctx context.Context, t fsm.CommandType, entry []byte, defaultWho string) ([]byte, error) {
	if a == nil || a.cfg.Off || !fsm.IsAudited(t) || !a.gate().Allows(feature.AuditTrail) {
		return entry, nil
	}
	c := callerOf(ctx, defaultWho)
	st := state.AuditStamp{Millis: a.wall().UnixMilli(), Who: c.Who, From: c.From, Via: cmp.Or(c.Via, a.id),
		MaxRecords: a.cfg.MaxRecords, MaxAgeMillis: max(0, a.cfg.MaxAge.Milliseconds())}
	return fsm.WithAudit(st, entry)
}

// Audited hears each record the FSM appends; it runs under the FSM's
// lock.
func (a *auditor) Audited(r state.AuditRecord) {
	c, ok := a.counts[r.Kind]
	if !ok {
		c = a.counts["other"]
	}
	c.Add(1)
	if rf := a.raft.Load(); rf == nil || rf.State() != raft.Leader || r.Index <= a.replayed.Load() {
		return
	}
	a.logger.Info("audit", "index", r.Index, "kind", r.Kind, "who", r.Who, "from", r.From, "via", r.Via,
		"cluster", r.Cluster, "broker", r.Broker, "topic", r.Topic, "detail", r.Detail, "outcome", r.Outcome,
		"at", time.UnixMilli(r.Millis).UTC().Format(time.RFC3339Nano))
}

// AuditCounts returns how many audit records of each kind this member
// applied since it started ("other" for a kind this build does not name).
func (n *Node) AuditCounts() map[string]uint64 {
	out := make(map[string]uint64, len(n.audit.counts))
	for k, c := range n.audit.counts {
		out[k] = c.Load()
	}
	return out
}

// RecordAudit records a change that is not a command of its own (a
// membership change, a leadership transfer, a restore, a configuration
// update) once it is done, with its outcome; ctx carries the caller. It
// does nothing while the trail is off here or the cluster version does
// not allow it.
func (n *Node) RecordAudit(ctx context.Context, rec state.AuditRecord) error {
	if n.audit.cfg.Off || !n.Gate().Allows(feature.AuditTrail) {
		return nil
	}
	_, err := n.Apply(ctx, fsm.RecordAuditType, &state.RecordAudit{Record: rec})
	return err
}

// recordLeaderAudit records a decision the leader took itself; the
// records of membership kinds this release added need its cluster version.
func (n *Node) recordLeaderAudit(ctx context.Context, rec state.AuditRecord) error {
	if !n.Gate().Allows(feature.StorageIdentity) {
		return nil
	}
	return n.RecordAudit(WithCaller(ctx, Caller{Who: CallerLeader}), rec)
}

// Outcome is an audit record's outcome for an operation's error.
func Outcome(err error) string {
	if err != nil {
		return "failed: " + err.Error()
	}
	return state.OutcomeApplied
}
