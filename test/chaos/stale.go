package chaos

import (
	"fmt"
	"time"
)

// staleReads checks the client-port reads, which are local by design: a
// member answers from its own state while it considers itself ready (it
// heard from the leader within max-stale and has applied what the leader
// had committed). The property checked is bounded staleness: a local read
// returns a state that was current at some moment within
// [invocation − bound, return]. For a KV key that means the value read was
// written by a put invoked before the read returned, and no later write
// (invoked after that put returned) had already returned before
// invocation − bound; reading "absent" needs the same of a delete or of the
// initial state. For a route, presence is checked the same way against
// registrations and unregistrations. It returns the number of reads that
// fail the property, the number checked and a description of the first few.
func staleReads(h *history, bound time.Duration) (stale, checked int, examples []string) {
	eachLocalRead(h, func(r event, ws []event) {
		checked++
		if !readPossible(r, ws, int64(bound)) {
			stale++
			if len(examples) < 3 {
				examples = append(examples, fmt.Sprintf("stale local read at %.3fs: %s",
					time.Duration(r.Call).Seconds(), model.DescribeOperation(r.In, r.Out)))
			}
		}
	})
	return stale, checked, examples
}

// eachLocalRead calls fn, under h's lock, with every client-port read that
// got an answer and the writes that may have set its key (presenceWrites).
func eachLocalRead(h *history, fn func(r event, ws []event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	writes := presenceWrites(h)
	for _, r := range h.events {
		if answeredLocalRead(r) {
			fn(r, writes[r.In.Key])
		}
	}
}

// explains reports whether the state write w leaves is what read r saw:
// presence for a route, presence and value for a KV key.
func explains(w, r event) bool {
	c, _ := effect(w.In)
	if c.Present != r.Out.Found {
		return false
	}
	return !c.Present || r.In.Kind == opReadRoute || c.Value == r.Out.Value
}

// readPossible reports whether some write (or the initial state) could
// explain r within the staleness bound.
func readPossible(r event, ws []event, bound int64) bool {
	// supersededBefore reports whether a write that certainly followed w
	// (invoked after w returned) had returned before t.
	supersededBefore := func(wReturn, t int64) bool {
		for _, o := range ws {
			if !o.Out.Unknown && o.Call > wReturn && o.Return < t {
				return true
			}
		}
		return false
	}
	windowStart := r.Call - bound
	if !r.Out.Found && !supersededBefore(-1<<62, windowStart) {
		return true // the initial state
	}
	for _, w := range ws {
		if w.Call > r.Return || !explains(w, r) {
			continue
		}
		end := w.Return
		if w.Out.Unknown {
			end = 1<<62 - 1 // may have landed at any time
		}
		if !supersededBefore(end, windowStart) {
			return true
		}
	}
	return false
}

// presenceWrites returns, by key, the writes that may have taken effect
// and set a key's presence or value (wipe and add change only a route's
// permission). The caller holds h.mu.
func presenceWrites(h *history) map[string][]event {
	writes := map[string][]event{}
	for _, e := range h.events {
		if isWrite(e.In.Kind) && !e.Failed && e.In.Kind != opWipe && e.In.Kind != opAdd {
			writes[e.In.Key] = append(writes[e.In.Key], e)
		}
	}
	return writes
}

// answeredLocalRead reports whether e is a client-port read that got an
// answer.
func answeredLocalRead(e event) bool {
	return !isWrite(e.In.Kind) && !e.In.Consistent && !e.Out.Unknown && !e.Failed
}

// staleBound is how old a local read may be: a member stops serving reads
// once it has had no leader contact, or has stayed behind a commit index
// the leader reported, for max-stale; the leader reports its commit index
// once per heartbeat batch (1 s), and readiness is re-evaluated every
// 100 ms (docs/contributors/reliability.md, "Reads").
const staleBound = maxStale + 2*time.Second
