package liveness

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/internal/poll"
)

// batchRetryStep is how soon a batch goes to a new leader, or again after
// it was not delivered.
const batchRetryStep = 100 * time.Millisecond

// Courier delivers a member's batch to the leader every heartbeat batch
// interval; on the leader the lessor takes what it hears directly. A new
// leader gets a batch at once and an undelivered batch is retried soon, so
// a leader that just took office hears every member's connections quickly
// (docs/operators/controller.md, "Liveness").
type Courier struct {
	Lessor *Lessor
	// Leader returns the leader's cluster address: "" when this member
	// leads or no leader is known.
	Leader func() string
	// Deliver sends a batch to the leader at addr; an error means the
	// leader did not take it.
	Deliver func(ctx context.Context, addr string, b *Batch) error
	Logger  hclog.Logger
}

// Run delivers batches until stop closes.
func (c *Courier) Run(stop <-chan struct{}) {
	interval := c.Lessor.cfg.HeartbeatBatchInterval
	step := min(interval, batchRetryStep)
	var sentAt time.Time
	var sentTo string
	delivered := true
	for poll.Sleep(step, stop) {
		leaderAddr := c.Leader()
		if leaderAddr == "" {
			continue
		}
		if delivered && leaderAddr == sentTo && time.Since(sentAt) < interval {
			continue
		}
		batch := c.Lessor.drain()
		ctx, cancel := context.WithTimeout(context.Background(), interval)
		err := c.Deliver(ctx, leaderAddr, batch)
		cancel()
		sentAt, sentTo, delivered = time.Now(), leaderAddr, err == nil
		if err != nil {
			c.Lessor.restore(batch)
			c.Logger.Debug("heartbeat batch not delivered", "leader", leaderAddr, "error", err)
		}
	}
}
