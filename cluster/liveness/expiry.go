package liveness

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// massExpiryMinBrokers is the smallest broker count at which the mass-expiry
// guard applies; below it one silent broker is a large fraction by nature.
const massExpiryMinBrokers = 5

// ExpiryConfig is what the expiry scan needs from the member.
type ExpiryConfig struct {
	// ExpiryBatchMax, MassExpiryFraction and ApplyTimeout are the member's
	// settings of those names.
	ExpiryBatchMax     int
	MassExpiryFraction float64
	ApplyTimeout       time.Duration
	Logger             hclog.Logger
	// VerifyLeader confirms with a quorum that this member still leads.
	VerifyLeader func() error
	// InOffice reports whether this member is a leader that took office.
	InOffice func() bool
	// Propose applies a command as the leader.
	Propose func(ctx context.Context, t fsm.CommandType, cmd any) (any, error)
	// Expired counts the brokers expired.
	Expired *atomic.Uint64
}

// Expirer turns what the lessor finds due into ExpireBrokers entries. It
// runs on the leader loop only. Expiries are leader-local applies, never
// forwarded, re-checked against the term of office and leadership right
// before each proposal (docs/contributors/design.md, "Leader-only liveness").
type Expirer struct {
	cfg    ExpiryConfig
	lessor *Lessor
}

// NewExpirer returns the expiry scan of what l finds due.
func NewExpirer(l *Lessor, cfg ExpiryConfig) *Expirer {
	return &Expirer{cfg: cfg, lessor: l}
}

// Scan proposes expiries for the brokers due now.
func (e *Expirer) Scan() {
	due, ok := e.lessor.due(e.lessor.clock())
	if !ok {
		return
	}
	if due.paused != 0 {
		e.cfg.Logger.Warn("this member was paused or its clock jumped since the last expiry scan: every broker lease restarts, nothing expires now",
			"gap", due.paused, "brokers", due.registered)
		return
	}
	capped := false
	if due.registered >= massExpiryMinBrokers && float64(len(due.timedOut)) > e.cfg.MassExpiryFraction*float64(due.registered) {
		e.cfg.Logger.Warn("mass expiry suspected: verifying leadership and expiring at the capped rate",
			"due", len(due.timedOut), "registered", due.registered)
		capped = true
	}
	e.expire(due.epoch, due.timedOut, "timeout", capped)
	e.expire(due.epoch, due.closed, "connection-closed", false)
}

// expire proposes due in batches while the deciding term lasts; capped
// stops after one batch.
func (e *Expirer) expire(epoch uint64, due []state.ExpiredBroker, reason string, capped bool) {
	for len(due) > 0 {
		batch := due[:min(len(due), e.cfg.ExpiryBatchMax)]
		due = due[len(batch):]
		if !e.cfg.InOffice() || e.lessor.Epoch() != epoch {
			return
		}
		if err := e.cfg.VerifyLeader(); err != nil {
			e.cfg.Logger.Warn("not expiring brokers: leadership not verified", "error", err)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), e.cfg.ApplyTimeout)
		_, err := e.cfg.Propose(ctx, fsm.ExpireBrokersType, &state.ExpireBrokers{Brokers: batch, Reason: reason})
		cancel()
		if err != nil {
			e.cfg.Logger.Error("expiry proposal failed", "brokers", len(batch), "error", err)
			return
		}
		e.cfg.Expired.Add(uint64(len(batch)))
		// Each member's FSM logs every broker that actually expired.
		e.cfg.Logger.Info("expiry committed", "brokers", len(batch), "reason", reason)
		if capped {
			return
		}
	}
}

// ScanRequests delivers the scans the lessor asks for before the next
// tick: once the close grace of a broker's last connection has passed.
func (e *Expirer) ScanRequests() <-chan struct{} { return e.lessor.scanNow }
