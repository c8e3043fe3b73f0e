package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// scaleFleet is the scale scenario's fake brokers, all in this process:
// they share a few connections per name server (broker b sends on
// clients[b mod len]) and send precomputed requests. Like real brokers,
// each sends its registration to every name server of its list once per
// period, broker b at b/N of the period, and waits up to timeout for an
// answer (a broker's registerBrokerTimeoutMills).
type scaleFleet struct {
	brokers  *scaleBrokers
	addrs    []string
	clients  clientPool
	timeout  time.Duration
	period   time.Duration
	inflight chan struct{}

	mu      sync.Mutex
	reqs    []*remoting.Command
	beats   beatCount
	lastErr error
	storm   *stormRecord
}

// beatCount counts the heartbeat registrations sent outside a storm.
type beatCount struct {
	Sent   int `json:"sent"`
	Failed int `json:"failed"`
}

func newScaleFleet(brokers *scaleBrokers, reqs []*remoting.Command, addrs []string, clients clientPool, timeout, period time.Duration) *scaleFleet {
	// Every broker may have a send in flight, as independent brokers do: a
	// tighter bound would make a slow server delay the heartbeats of the
	// brokers after it and expire them, which real brokers would not see.
	return &scaleFleet{brokers: brokers, reqs: reqs, addrs: addrs, clients: clients, timeout: timeout, period: period,
		inflight: make(chan struct{}, len(brokers.regs))}
}

// send sends req for broker b to name server a and waits for the answer.
func (f *scaleFleet) send(ctx context.Context, b, a int, req *remoting.Command) error {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	_, err := f.clients[b%len(f.clients)].Invoke(ctx, f.addrs[a], req)
	return err
}

func (f *scaleFleet) current(b int) *remoting.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs[b]
}

// fill registers every broker with every name server, parallel requests in
// flight, and returns how many registrations failed and the first error.
func (f *scaleFleet) fill(ctx context.Context, parallel int) (failed int, first error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan [2]int)
	for range parallel {
		wg.Go(func() {
			for ba := range next {
				if err := f.send(ctx, ba[0], ba[1], f.current(ba[0])); err != nil {
					mu.Lock()
					failed++
					if first == nil {
						first = fmt.Errorf("register %s with %s: %w", f.brokers.regs[ba[0]].BrokerName, f.addrs[ba[1]], err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for b := range f.brokers.regs {
		for a := range f.addrs {
			next <- [2]int{b, a}
		}
	}
	close(next)
	wg.Wait()
	return failed, first
}

// beat runs heartbeat rounds until stop is called: each round sends every
// broker's current registration to every name server, broker b at b/N of
// the period; a round that starts after stormNext restarts every broker
// instead (stormRecord).
func (f *scaleFleet) beat(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			f.round(ctx, &wg)
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}

// round runs one round; wg counts its sends.
func (f *scaleFleet) round(ctx context.Context, wg *sync.WaitGroup) {
	start := time.Now()
	storm := f.takeStorm(start)
	n := len(f.brokers.regs)
	for b := range n {
		if sleepUntil(ctx, start.Add(f.period*time.Duration(b)/time.Duration(n))) != nil {
			break
		}
		select {
		case f.inflight <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		if storm != nil {
			storm.sends.Add(1)
		}
		wg.Go(func() {
			defer func() { <-f.inflight }()
			if storm != nil {
				defer storm.sends.Done()
				f.restart(ctx, b, storm)
				return
			}
			f.toAll(ctx, b, f.current(b), f.recordBeat)
		})
	}
	if storm != nil {
		go func() {
			storm.sends.Wait()
			close(storm.roundDone)
		}()
	}
	sleepUntil(ctx, start.Add(f.period))
}

// toAll sends req for broker b to every name server at once, as a broker
// does, calls record with each outcome and returns when all are answered.
func (f *scaleFleet) toAll(ctx context.Context, b int, req *remoting.Command, record func(b, a int, sent, done time.Time, err error)) {
	var wg sync.WaitGroup
	for a := range f.addrs {
		wg.Go(func() {
			sent := time.Now()
			err := f.send(ctx, b, a, req)
			if ctx.Err() == nil {
				record(b, a, sent, time.Now(), err)
			}
		})
	}
	wg.Wait()
}

// recordBeat counts a heartbeat; a success after a broker's restart in a
// storm brings it back on that name server.
func (f *scaleFleet) recordBeat(b, a int, sent, done time.Time, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.beats.Sent++
	if err != nil {
		f.beats.Failed++
		f.lastErr = err
		return
	}
	if s := f.storm; s != nil {
		s.up(b, a, sent, done)
	}
}

// beatCounts returns the heartbeat counts so far and the last error.
func (f *scaleFleet) beatCounts() (beatCount, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.beats, f.lastErr
}

// closeClients closes the fleet's connections: every name server then
// sees its brokers' connections close.
func (f *scaleFleet) closeClients() { f.clients.close() }

// newFleetClients returns the fleet's shared clients, bounded by the
// registration timeout.
func newFleetClients(e *env, conns int, timeout time.Duration) clientPool {
	p := make(clientPool, conns)
	for i := range p {
		p[i] = nsclient.New(remoting.ClientConfig{DialTimeout: e.opts.Timeout, RequestTimeout: timeout, WriteTimeout: timeout})
	}
	return p
}
