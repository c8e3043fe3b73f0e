package fsm

import (
	"errors"
	"fmt"
	"sort"

	"github.com/raftns/raftns/fsm/state"

	"github.com/raftns/raftns/internal/feature"
)

// Forwarding says who may propose a command.
type Forwarding bool

const (
	// Forwardable commands come from brokers and clients: a follower that
	// receives one forwards it to the leader.
	Forwardable Forwarding = true
	// LeaderOnly commands are decided by the leader itself (expiries, the
	// member directory); a leader refuses them from a follower.
	LeaderOnly Forwarding = false
)

// commandSpec is everything RaftNS knows about one command type: its name,
// who may propose it, how to decode it, how to apply it and how its answer
// travels from the leader back to a follower. Each command is described
// once, in the table of commands.go; encoding, decoding, dispatch, result
// handling and the leader's forwarding check all read it.
type commandSpec struct {
	typ     CommandType
	name    string
	forward Forwarding
	// newCmd returns a pointer to a zero command, the target of Decode.
	newCmd func() any
	// matches reports whether a value is this command, by value or by a
	// non-nil pointer.
	matches func(any) bool
	// apply changes s and returns the proposer's answer and whether the
	// state changed.
	apply func(f *FSM, s *state.State, cmd any, index uint64) (any, bool)
	// encodeResult and decodeResult carry the answer between members; nil
	// when the command answers nothing.
	encodeResult func(any) ([]byte, error)
	decodeResult func([]byte) (any, error)
	// needs is the feature the command needs (versioned.go); zero for
	// commands every release reads.
	needs feature.Feature
}

// command describes a command that answers nothing but success.
func command[C any](t CommandType, name string, fwd Forwarding, apply func(*FSM, *state.State, *C, uint64) bool) commandSpec {
	spec := describe[C](t, name, fwd)
	if apply != nil {
		spec.apply = func(f *FSM, s *state.State, cmd any, index uint64) (any, bool) {
			return nil, apply(f, s, cmd.(*C), index)
		}
	}
	return spec
}

// commandWithResult describes a command whose answer R the proposer needs
// (on a follower: after it travelled back from the leader).
func commandWithResult[C, R any](t CommandType, name string, fwd Forwarding, apply func(*FSM, *state.State, *C, uint64) (R, bool)) commandSpec {
	spec := describe[C](t, name, fwd)
	if apply != nil {
		spec.apply = func(f *FSM, s *state.State, cmd any, index uint64) (any, bool) {
			return apply(f, s, cmd.(*C), index)
		}
	}
	spec.encodeResult = func(res any) ([]byte, error) {
		r, ok := res.(R)
		if !ok {
			return nil, fmt.Errorf("fsm: %s answers %T, got %T", name, r, res)
		}
		return state.EncodeMsgpack(r)
	}
	spec.decodeResult = func(buf []byte) (any, error) {
		var r R
		if err := state.DecodeMsgpack(buf, &r); err != nil {
			return nil, fmt.Errorf("fsm: %s answer: %w", name, err)
		}
		return r, nil
	}
	return spec
}

// controllerCommand describes a controller command: decided by the leader
// (LeaderOnly), answering a ControllerResult.
func controllerCommand[C any](t CommandType, name string, apply func(*state.State, *C) (state.ControllerResult, bool)) commandSpec {
	return commandWithResult(t, name, LeaderOnly, func(_ *FSM, s *state.State, c *C, _ uint64) (state.ControllerResult, bool) {
		return apply(s, c)
	})
}

func describe[C any](t CommandType, name string, fwd Forwarding) commandSpec {
	return commandSpec{
		typ:     t,
		name:    name,
		forward: fwd,
		newCmd:  func() any { return new(C) },
		matches: func(v any) bool {
			switch c := v.(type) {
			case *C:
				return c != nil
			case C:
				return true
			}
			return false
		},
	}
}

// registry maps a command type (flag stripped) to its description.
type registry map[CommandType]*commandSpec

// newRegistry checks the descriptions and indexes them; a half-described
// command is a programming error caught when the package loads.
func newRegistry(specs ...commandSpec) registry {
	if err := validate(specs); err != nil {
		panic(err)
	}
	r := make(registry, len(specs))
	for i := range specs {
		r[specs[i].typ] = &specs[i]
	}
	return r
}

// errIncompleteCommand reports a command description missing a part.
var errIncompleteCommand = errors.New("fsm: incomplete command description")

// validate reports the first description without a name or an apply
// function, with a type reserved for envelopes or flags, or whose type or
// name is taken twice.
func validate(specs []commandSpec) error {
	types, names := map[CommandType]bool{}, map[string]bool{}
	for _, s := range specs {
		switch {
		case s.name == "":
			return fmt.Errorf("%w: type %d has no name", errIncompleteCommand, uint8(s.typ))
		case s.apply == nil:
			return fmt.Errorf("%w: %s has no apply function", errIncompleteCommand, s.name)
		case s.typ == 0 || s.typ == compressedType || s.typ == requestType || s.typ == versionedType || s.typ == auditType ||
			s.typ&IgnoreUnknownTypeFlag != 0:
			return fmt.Errorf("%w: %s uses reserved type %d", errIncompleteCommand, s.name, uint8(s.typ))
		case types[s.typ] || names[s.name]:
			return fmt.Errorf("%w: %s (type %d) registered twice", errIncompleteCommand, s.name, uint8(s.typ))
		}
		types[s.typ], names[s.name] = true, true
	}
	return nil
}

// lookup returns the description of t, flag stripped, or nil.
func (r registry) lookup(t CommandType) *commandSpec { return r[t&^IgnoreUnknownTypeFlag] }

// String returns the command's name for logs.
func (t CommandType) String() string {
	if s := commands.lookup(t); s != nil {
		return s.name
	}
	return "Unknown"
}

// CommandTypes lists every registered command type in ascending order.
func CommandTypes() []CommandType {
	out := make([]CommandType, 0, len(commands))
	for t := range commands {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// IsForwardable reports whether a follower may forward a command of type t
// to the leader. Unknown types are not forwardable.
func IsForwardable(t CommandType) bool {
	s := commands.lookup(t)
	return s != nil && s.forward == Forwardable
}

// EncodeResult encodes what Apply answered for a command of type t, for the
// trip from the leader back to a forwarding follower; nil for a command that
// answers nothing.
func EncodeResult(t CommandType, res any) ([]byte, error) {
	s := commands.lookup(t)
	if s == nil {
		return nil, fmt.Errorf("%w: %d", ErrUnknownCommandType, uint8(t))
	}
	if s.encodeResult == nil || res == nil {
		return nil, nil
	}
	return s.encodeResult(res)
}

// DecodeResult is the inverse of EncodeResult: the value Apply returned on
// the leader, or nil for a command that answers nothing.
func DecodeResult(t CommandType, buf []byte) (any, error) {
	s := commands.lookup(t)
	if s == nil {
		return nil, fmt.Errorf("%w: %d", ErrUnknownCommandType, uint8(t))
	}
	if s.decodeResult == nil || len(buf) == 0 {
		return nil, nil
	}
	return s.decodeResult(buf)
}
