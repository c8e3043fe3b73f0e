package main

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/protocol/remoting"
)

// stormRecord is one restart storm: in one heartbeat round every broker
// restarts at its slot, as after a data-centre restart: it unregisters
// from every name server (a broker's shutdown), then registers its whole
// topic table with a new DataVersion with every one of them. A broker is
// back on a name server once a registration sent after its restart is
// answered with success there; one that failed comes back with its next
// heartbeat a period later, as a real broker would.
type stormRecord struct {
	reqs      []*remoting.Command // every broker's registration after its restart
	start     time.Time
	sends     sync.WaitGroup
	roundDone chan struct{}

	// Guarded by the fleet's mutex.
	downAt, startAt     []time.Time
	upAt                [][]time.Time
	failedReg, failedUn int
	firstErr            error
}

// stormNext makes the fleet's next round a storm with the new
// registrations reqs and returns its record.
func (f *scaleFleet) stormNext(reqs []*remoting.Command) *stormRecord {
	n := len(f.brokers.regs)
	s := &stormRecord{reqs: reqs, roundDone: make(chan struct{}),
		downAt: make([]time.Time, n), startAt: make([]time.Time, n), upAt: make([][]time.Time, n)}
	for b := range s.upAt {
		s.upAt[b] = make([]time.Time, len(f.addrs))
	}
	f.mu.Lock()
	f.storm = s
	f.mu.Unlock()
	return s
}

// takeStorm returns the storm that a round starting at start runs, nil for
// a heartbeat round.
func (f *scaleFleet) takeStorm(start time.Time) *stormRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.storm; s != nil && s.start.IsZero() {
		s.start = start
		return s
	}
	return nil
}

// restart is broker b's restart in storm s.
func (f *scaleFleet) restart(ctx context.Context, b int, s *stormRecord) {
	f.mu.Lock()
	s.downAt[b] = time.Now()
	f.mu.Unlock()
	f.toAll(ctx, b, f.brokers.unregisterRequest(b), func(_, _ int, _, _ time.Time, err error) {
		if err != nil {
			f.mu.Lock()
			s.failedUn++
			s.fail(err)
			f.mu.Unlock()
		}
	})
	f.mu.Lock()
	f.reqs[b] = s.reqs[b]
	s.startAt[b] = time.Now()
	f.mu.Unlock()
	f.toAll(ctx, b, s.reqs[b], func(b, a int, sent, done time.Time, err error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if err != nil {
			s.failedReg++
			s.fail(err)
			return
		}
		s.up(b, a, sent, done)
	})
}

func (s *stormRecord) fail(err error) {
	if s.firstErr == nil {
		s.firstErr = err
	}
}

// up records a successful registration of broker b with name server a,
// sent at sent: the broker is back there if it was sent after its restart.
func (s *stormRecord) up(b, a int, sent, done time.Time) {
	if st := s.startAt[b]; !st.IsZero() && !sent.Before(st) && s.upAt[b][a].IsZero() {
		s.upAt[b][a] = done
	}
}

// allBack reports whether every broker is back on every name server.
func (f *scaleFleet) allBack(s *stormRecord) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ups := range s.upAt {
		if slices.ContainsFunc(ups, time.Time.IsZero) {
			return false
		}
	}
	return true
}

// stormOutcome is what a storm measured.
type stormOutcome struct {
	Brokers             int     `json:"brokers"`
	RoundSeconds        float64 `json:"roundSeconds"`
	FailedRegistrations int     `json:"failedRegistrations"`
	FailedUnregisters   int     `json:"failedUnregistrations"`
	FirstError          string  `json:"firstError,omitempty"`
	// NeverBack are brokers not back on every name server when the wait
	// ended.
	NeverBack int `json:"neverBack"`
	// MissingOverPeriod are brokers missing from some name server for
	// longer than one heartbeat period (unregistration sent → back).
	MissingOverPeriod int `json:"missingOverPeriod"`
	// LateOver60s are brokers not routable on every name server within
	// 60 s of their start (registration sent → back everywhere).
	LateOver60s int `json:"lateOver60s"`
	// Routable is start → back on every name server.
	Routable Summary `json:"routable"`
}

// awaitStorm waits for the storm's round and then, up to one more period,
// for every broker to be back everywhere, and returns the outcome.
func (f *scaleFleet) awaitStorm(ctx context.Context, s *stormRecord) (stormOutcome, error) {
	select {
	case <-s.roundDone:
	case <-ctx.Done():
		return stormOutcome{}, ctx.Err()
	}
	roundEnd := time.Now()
	err := launch.Poll(ctx, f.period+f.timeout+5*time.Second, 100*time.Millisecond, "every broker back after the storm",
		func() (bool, error) { return f.allBack(s), nil })
	if err != nil && ctx.Err() != nil {
		return stormOutcome{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := stormOutcome{Brokers: len(s.upAt), RoundSeconds: roundEnd.Sub(s.start).Seconds(),
		FailedRegistrations: s.failedReg, FailedUnregisters: s.failedUn}
	if s.firstErr != nil {
		out.FirstError = s.firstErr.Error()
	}
	var routable []time.Duration
	for b, ups := range s.upAt {
		if slices.ContainsFunc(ups, time.Time.IsZero) {
			out.NeverBack++
			out.MissingOverPeriod++
			out.LateOver60s++
			continue
		}
		last := slices.MaxFunc(ups, time.Time.Compare)
		routable = append(routable, last.Sub(s.startAt[b]))
		if last.Sub(s.downAt[b]) > f.period {
			out.MissingOverPeriod++
		}
		if last.Sub(s.startAt[b]) > 60*time.Second {
			out.LateOver60s++
		}
	}
	out.Routable = summarize(routable)
	return out, nil
}
