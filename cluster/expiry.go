package cluster

import (
	"context"
	"time"

	"github.com/raftns/raftns/fsm"
)

// massExpiryMinBrokers is the smallest broker count at which the mass-expiry
// guard applies; below it one silent broker is a large fraction by nature.
const massExpiryMinBrokers = 5

// expireSilentBrokers proposes expiries for the brokers the lessor finds
// due. Expiries are leader-local applies, never forwarded, re-checked
// against the term of office and leadership right before each proposal
// (docs/design.md, "Leader-only liveness").
func (n *Node) expireSilentBrokers() {
	due, ok := n.lessor.Due(time.Now())
	if !ok {
		return
	}
	capped := false
	if due.registered >= massExpiryMinBrokers && float64(len(due.timedOut)) > n.cfg.MassExpiryFraction*float64(due.registered) {
		n.logger.Warn("mass expiry suspected: verifying leadership and expiring at the capped rate",
			"due", len(due.timedOut), "registered", due.registered)
		capped = true
	}
	n.proposeExpiries(due.epoch, due.timedOut, "timeout", capped)
	n.proposeExpiries(due.epoch, due.closed, "connection-closed", false)
}

func (n *Node) proposeExpiries(epoch uint64, due []fsm.ExpiredBroker, reason string, capped bool) {
	for len(due) > 0 {
		batch := due[:min(len(due), n.cfg.ExpiryBatchMax)]
		due = due[len(batch):]
		if !n.leaderReady.Load() || n.lessor.Epoch() != epoch {
			return
		}
		if err := n.raft.VerifyLeader().Error(); err != nil {
			n.logger.Warn("not expiring brokers: leadership not verified", "error", err)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.ApplyTimeout)
		_, err := n.applyAsLeader(ctx, fsm.ExpireBrokersType, &fsm.ExpireBrokers{Brokers: batch, Reason: reason})
		cancel()
		if err != nil {
			n.logger.Error("expiry proposal failed", "brokers", len(batch), "error", err)
			return
		}
		n.stats.Expirations.Add(uint64(len(batch)))
		// Each member's FSM logs every broker that actually expired.
		n.logger.Info("expiry committed", "brokers", len(batch), "reason", reason)
		if capped {
			return
		}
	}
}

// requestScan asks the leader loop for a scan after d, used when a broker's
// last connection closed so that the grace is honoured to the second.
func (n *Node) requestScan(d time.Duration) {
	time.AfterFunc(d, func() {
		select {
		case n.scanNow <- struct{}{}:
		default:
		}
	})
}
