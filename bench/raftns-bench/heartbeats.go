package main

import (
	"context"
	"sync"
	"time"

	"github.com/raftns/raftns/client/nsclient"
)

// heartbeats sends unchanged registrations of a set of brokers to every
// live member each interval and records, per broker, when its last
// heartbeat that some member accepted was sent.
type heartbeats struct {
	client *nsclient.Client
	quit   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	last   map[string]time.Time
}

func startHeartbeats(ctx context.Context, e *env, regs []*nsclient.Registration, every time.Duration) *heartbeats {
	h := &heartbeats{client: e.newClient(), quit: make(chan struct{}), last: map[string]time.Time{}}
	for _, m := range e.members {
		h.wg.Go(func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				for _, r := range regs {
					if h.stopping() || m.Exited() {
						break
					}
					sent := time.Now()
					if _, err := h.client.RegisterBroker(ctx, m.ClientAddr, r); err == nil {
						h.seen(r.BrokerName, sent)
					}
				}
				select {
				case <-ctx.Done():
					return
				case <-h.quit:
					return
				case <-t.C:
				}
			}
		})
	}
	return h
}

func (h *heartbeats) stopping() bool {
	select {
	case <-h.quit:
		return true
	default:
		return false
	}
}

func (h *heartbeats) seen(name string, at time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if at.After(h.last[name]) {
		h.last[name] = at
	}
}

// stop ends the heartbeats, letting requests in flight finish so that the
// recorded last heartbeat is really the last one, and returns each
// broker's last accepted heartbeat. It does not close the connections.
func (h *heartbeats) stop() map[string]time.Time {
	if !h.stopping() {
		close(h.quit)
	}
	h.wg.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]time.Time, len(h.last))
	for k, v := range h.last {
		out[k] = v
	}
	return out
}
