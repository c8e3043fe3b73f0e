package cluster

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
)

// massExpiryMinBrokers is the smallest broker count at which the mass-expiry
// guard applies; below it one silent broker is a large fraction by nature.
const massExpiryMinBrokers = 5

// expirer turns what the lessor finds due into ExpireBrokers entries. It
// runs on the leader loop only. Expiries are leader-local applies, never
// forwarded, re-checked against the term of office and leadership right
// before each proposal (docs/design.md, "Leader-only liveness").
type expirer struct {
	cfg    *Config
	logger hclog.Logger
	lessor *lessor
	raft   *raft.Raft
	stats  *Stats
	// inOffice reports whether this member is a leader that took office.
	inOffice func() bool
	// propose applies a command as the leader.
	propose func(ctx context.Context, t fsm.CommandType, cmd any) (any, error)
	// scanNow asks the leader loop for a scan before the next tick.
	scanNow chan struct{}
}

// scan proposes expiries for the brokers due now.
func (e *expirer) scan() {
	due, ok := e.lessor.Due(time.Now())
	if !ok {
		return
	}
	capped := false
	if due.registered >= massExpiryMinBrokers && float64(len(due.timedOut)) > e.cfg.MassExpiryFraction*float64(due.registered) {
		e.logger.Warn("mass expiry suspected: verifying leadership and expiring at the capped rate",
			"due", len(due.timedOut), "registered", due.registered)
		capped = true
	}
	e.expire(due.epoch, due.timedOut, "timeout", capped)
	e.expire(due.epoch, due.closed, "connection-closed", false)
}

// expire proposes due in batches while the deciding term lasts; capped
// stops after one batch.
func (e *expirer) expire(epoch uint64, due []fsm.ExpiredBroker, reason string, capped bool) {
	for len(due) > 0 {
		batch := due[:min(len(due), e.cfg.ExpiryBatchMax)]
		due = due[len(batch):]
		if !e.inOffice() || e.lessor.Epoch() != epoch {
			return
		}
		if err := e.raft.VerifyLeader().Error(); err != nil {
			e.logger.Warn("not expiring brokers: leadership not verified", "error", err)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), e.cfg.ApplyTimeout)
		_, err := e.propose(ctx, fsm.ExpireBrokersType, &fsm.ExpireBrokers{Brokers: batch, Reason: reason})
		cancel()
		if err != nil {
			e.logger.Error("expiry proposal failed", "brokers", len(batch), "error", err)
			return
		}
		e.stats.Expirations.Add(uint64(len(batch)))
		// Each member's FSM logs every broker that actually expired.
		e.logger.Info("expiry committed", "brokers", len(batch), "reason", reason)
		if capped {
			return
		}
	}
}

// requestScan asks the leader loop for a scan after d, used when a broker's
// last connection closed so that the grace is honoured to the second.
func (e *expirer) requestScan(d time.Duration) {
	time.AfterFunc(d, func() {
		select {
		case e.scanNow <- struct{}{}:
		default:
		}
	})
}
