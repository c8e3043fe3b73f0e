package chaos

import (
	"encoding/json"
	"math"
	"os"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
)

// event is one operation as a client saw it: when it was invoked and when
// it returned, in nanoseconds since the run started.
type event struct {
	Client int    `json:"client"`
	In     input  `json:"in"`
	Out    output `json:"out"`
	Call   int64  `json:"call"`
	Return int64  `json:"return"`
	// Failed: the request certainly changed nothing (the member said so,
	// or the connection was refused); it is left out of the check.
	Failed bool `json:"failed,omitempty"`
	// Err is the error the client got, for the saved history.
	Err string `json:"err,omitempty"`
}

// fault is one nemesis action, for the report and the visualization.
type fault struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Start  int64  `json:"start"`
	End    int64  `json:"end"`
}

// history collects events and faults from concurrent clients.
type history struct {
	start  time.Time
	mu     sync.Mutex
	events []event
	faults []fault
}

func newHistory() *history { return &history{start: time.Now()} }

func (h *history) now() int64 { return int64(time.Since(h.start)) }

func (h *history) add(e event) {
	h.mu.Lock()
	h.events = append(h.events, e)
	h.mu.Unlock()
}

func (h *history) addFault(f fault) {
	h.mu.Lock()
	h.faults = append(h.faults, f)
	h.mu.Unlock()
}

// operations returns the writes and the leader-checked reads as porcupine
// sees them. A write whose outcome is unknown may take effect at any time
// after its invocation, so it never returns; an unknown put whose unique
// value no read ever saw is left out, since "it never happened" explains it
// (this keeps the search small). Failed operations, reads that got no
// answer and local reads (checked by staleReads) are left out.
func (h *history) operations() []porcupine.Operation {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[string]bool{}
	for _, e := range h.events {
		if e.In.Kind == opReadKV && e.Out.Found {
			seen[e.In.Key+"="+e.Out.Value] = true
		}
	}
	var ops []porcupine.Operation
	for _, e := range h.events {
		switch {
		case e.Failed, !isWrite(e.In.Kind) && (e.Out.Unknown || !e.In.Consistent):
			continue
		case e.Out.Unknown && e.In.Kind == opPut && !seen[e.In.Key+"="+e.In.Value]:
			continue
		}
		op := porcupine.Operation{ClientId: e.Client, Input: e.In, Call: e.Call, Output: e.Out, Return: e.Return}
		if e.Out.Unknown {
			op.Return = math.MaxInt64
		}
		ops = append(ops, op)
	}
	return ops
}

// annotations are the faults, drawn on the visualization's timeline.
func (h *history) annotations() []porcupine.Annotation {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []porcupine.Annotation
	for _, f := range h.faults {
		out = append(out, porcupine.Annotation{Tag: "nemesis", Start: f.Start, End: f.End,
			Description: f.Kind, Details: f.Detail, BackgroundColor: "#f4cccc"})
	}
	return out
}

// save writes the events and faults as JSON, for replay and inspection.
func (h *history) save(path string, meta any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, err := json.MarshalIndent(map[string]any{"run": meta, "events": h.events, "faults": h.faults}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
