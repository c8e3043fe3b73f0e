package chaos

import (
	"fmt"
	"sort"

	"github.com/anishathalye/porcupine"
)

// Operation kinds of the workload.
const (
	opPut        = "put"        // PUT_KV_CONFIG
	opDelete     = "delete"     // DELETE_KV_CONFIG
	opReadKV     = "get"        // GET_KV_CONFIG
	opRegister   = "register"   // REGISTER_BROKER with a new DataVersion
	opUnregister = "unregister" // UNREGISTER_BROKER
	opWipe       = "wipe"       // WIPE_WRITE_PERM_OF_BROKER
	opAdd        = "add"        // ADD_WRITE_PERM_OF_BROKER
	opReadRoute  = "route"      // GET_ROUTEINFO_BY_TOPIC of the broker's topic
)

// input is what a client asked. Key is a KV key or a broker name; every key
// is an independent register of the model.
type input struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Value string `json:"value,omitempty"`
	// Member is the member the request was sent to.
	Member string `json:"member"`
	// Consistent marks a leader-checked read (admin API); other reads are
	// local reads on the client port.
	Consistent bool `json:"consistent,omitempty"`
}

// output is what the client was told.
type output struct {
	// Unknown: the request may or may not have taken effect (a timeout,
	// a broken connection, an answer that says the outcome is unknown).
	Unknown  bool   `json:"unknown,omitempty"`
	Found    bool   `json:"found,omitempty"`
	Value    string `json:"value,omitempty"`
	Writable bool   `json:"writable,omitempty"`
	Count    int    `json:"count,omitempty"`
}

// cell is the model's state of one key: a KV entry (Present, Value) or a
// broker (Present = registered, Writable = its topic has write permission).
type cell struct {
	Present  bool
	Writable bool
	Value    string
}

func isWrite(kind string) bool { return kind != opReadKV && kind != opReadRoute }

// step is the sequential specification of one key.
func step(st cell, in input, out output) (bool, cell) {
	switch in.Kind {
	case opPut:
		return true, cell{Present: true, Value: in.Value}
	case opDelete:
		return true, cell{}
	case opRegister:
		return true, cell{Present: true, Writable: true}
	case opUnregister:
		return true, cell{}
	case opWipe, opAdd:
		count := 0
		if st.Present {
			count = 1
			st.Writable = in.Kind == opAdd
		}
		return out.Unknown || out.Count == count, st
	case opReadKV:
		return out.Found == st.Present && (!st.Present || out.Value == st.Value), st
	case opReadRoute:
		return out.Found == st.Present && (!st.Present || out.Writable == st.Writable), st
	}
	return false, st
}

// model is the porcupine model: one partition per key.
var model = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, op := range history {
			k := op.Input.(input).Key
			byKey[k] = append(byKey[k], op)
		}
		keys := make([]string, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([][]porcupine.Operation, 0, len(keys))
		for _, k := range keys {
			out = append(out, byKey[k])
		}
		return out
	},
	Init: func() any { return cell{} },
	Step: func(state, in, out any) (bool, any) {
		return step(state.(cell), in.(input), out.(output))
	},
	DescribeOperation: func(in, out any) string {
		i, o := in.(input), out.(output)
		what := fmt.Sprintf("%s(%s", i.Kind, i.Key)
		if i.Value != "" {
			what += "=" + i.Value
		}
		what += ")@" + i.Member
		if i.Consistent {
			what += " consistent"
		}
		switch {
		case o.Unknown:
			return what + " → unknown"
		case i.Kind == opReadKV && o.Found:
			return what + " → " + o.Value
		case i.Kind == opReadRoute && o.Found:
			return fmt.Sprintf("%s → writable=%v", what, o.Writable)
		case !isWrite(i.Kind):
			return what + " → absent"
		case i.Kind == opWipe || i.Kind == opAdd:
			return fmt.Sprintf("%s → %d", what, o.Count)
		}
		return what + " → ok"
	},
	DescribeState: func(state any) string {
		c := state.(cell)
		switch {
		case !c.Present:
			return "absent"
		case c.Value != "":
			return c.Value
		}
		return fmt.Sprintf("registered writable=%v", c.Writable)
	},
}
