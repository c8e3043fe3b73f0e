package cluster

import (
	"context"
	"time"

	"github.com/raftns/raftns/fsm"
)

// massExpiryMinBrokers is the smallest broker count at which the mass-expiry
// guard applies; below it one silent broker is a large fraction by nature.
const massExpiryMinBrokers = 5

// expireSilentBrokers proposes expiries for the brokers the tracker finds
// due. Expiries are leader-local applies, never forwarded, re-checked
// against leadership right before each proposal (consensus-lessons 5, 8, 10).
func (n *Node) expireSilentBrokers() {
	regs := n.fsm.Registrations()
	n.trackerMu.Lock()
	if n.tracker == nil {
		n.trackerMu.Unlock()
		return
	}
	n.tracker.setHeld(n.cfg.ID, n.local.heldKeys())
	timedOut, closed := n.tracker.due(regs)
	n.trackerMu.Unlock()

	capped := false
	if len(regs) >= massExpiryMinBrokers && float64(len(timedOut)) > n.cfg.MassExpiryFraction*float64(len(regs)) {
		n.logger.Warn("mass expiry suspected: verifying leadership and expiring at the capped rate",
			"due", len(timedOut), "registered", len(regs))
		capped = true
	}
	n.proposeExpiries(timedOut, "timeout", capped)
	n.proposeExpiries(closed, "connection-closed", false)
}

func (n *Node) proposeExpiries(due []fsm.ExpiredBroker, reason string, capped bool) {
	for len(due) > 0 {
		batch := due[:min(len(due), n.cfg.ExpiryBatchMax)]
		due = due[len(batch):]
		if !n.leaderReady.Load() {
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
