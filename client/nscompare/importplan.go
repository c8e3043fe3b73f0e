package nscompare

import (
	"context"
	"errors"
	"fmt"

	"github.com/raftns/raftns/client/nsclient"
)

// ErrConflict means the reference name servers disagree on what an import
// would copy, so nothing is copied.
var ErrConflict = errors.New("nscompare: the reference name servers disagree")

// Action is what an import does with one KV key or broker group.
type Action string

// The actions of an import.
const (
	// ActionSet puts a key the target does not have.
	ActionSet Action = "set"
	// ActionUpdate puts a key the target has with another value.
	ActionUpdate Action = "update"
	// ActionUnchanged: the target has the key with the same value.
	ActionUnchanged Action = "unchanged"
	// ActionWipe wipes the write permission of a broker group that the
	// references have wiped and the target has not.
	ActionWipe Action = "wipe"
	// ActionAlreadyWiped: the target has wiped the group too.
	ActionAlreadyWiped Action = "already wiped"
	// ActionNotRegistered: the references have wiped the group, but no
	// route of the target has its queues yet; import again once it has
	// registered with the target.
	ActionNotRegistered Action = "not registered"
	// ActionCannotStore: RaftNS cannot store the key as the references
	// hold it (KVChange.Reason says why); it is not written, the rest is.
	ActionCannotStore Action = "cannot store"
)

// KVChange is one key of the references' namespaces.
type KVChange struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	// Old is the target's value of a key to update.
	Old    *string `json:"old,omitempty"`
	Action Action  `json:"action"`
	// Reason says why a key the target cannot store is not written.
	Reason string `json:"reason,omitempty"`
}

// writes reports whether Apply puts the key: it is to be set or updated.
func (ch KVChange) writes() bool { return ch.Action == ActionSet || ch.Action == ActionUpdate }

// PermChange is one broker group that the references have wiped.
type PermChange struct {
	Broker string `json:"broker"`
	Action Action `json:"action"`
}

// Plan is what an import writes into its target.
type Plan struct {
	References []string     `json:"references"`
	Target     string       `json:"target"`
	KV         []KVChange   `json:"kv"`
	Perms      []PermChange `json:"writePerm"`
	// Conflicts are the KV keys, and broker groups' write permissions, on
	// which the references disagree; Values has one entry per reference.
	// Apply refuses a plan with conflicts.
	Conflicts []Difference `json:"conflicts"`
}

// Writes counts the requests Apply would send.
func (p *Plan) Writes() int {
	n := 0
	for _, ch := range p.KV {
		if ch.writes() {
			n++
		}
	}
	for _, ch := range p.Perms {
		if ch.Action == ActionWipe {
			n++
		}
	}
	return n
}

// PlanImport reads the KV namespaces of refs and target and plans to copy
// every key of the references into the target; keys only the target has
// are left alone. With writePerm it also reads every route of refs and
// target and plans to wipe, on the target, the write permission of the
// broker groups that every reference having their queues has wiped.
// Nothing is written.
func PlanImport(ctx context.Context, c *nsclient.Client, refs []string, target string, writePerm bool, opts Options) (*Plan, error) {
	opts = opts.withDefaults()
	if err := opts.check(refs, []string{target}); err != nil {
		return nil, err
	}
	servers := append(append([]string(nil), refs...), target)
	r := reader{c: c, timeout: opts.RequestTimeout}
	states, err := r.readStates(ctx, servers, opts.Namespaces, parts{topics: writePerm})
	if err != nil {
		return nil, err
	}
	p := &Plan{References: refs, Target: target, KV: []KVChange{}, Perms: []PermChange{}, Conflicts: []Difference{}}
	refStates, targetState := states[:len(refs)], states[len(refs)]
	p.planKV(refStates, targetState, opts.Namespaces)
	p.markUnstorable(c)
	if writePerm {
		if err := r.compareRoutes(ctx, states, unionTopics(states), nil, opts); err != nil {
			return nil, err
		}
		p.planPerms(refStates, targetState)
	}
	return p, nil
}

// planKV plans every key of the references, namespace by namespace.
func (p *Plan) planKV(refs []*serverState, target *serverState, namespaces []string) {
	for _, ns := range namespaces {
		tables := make([]map[string]string, len(refs))
		for i, s := range refs {
			tables[i] = s.kv[ns]
		}
		for _, key := range unionKeys(tables) {
			values := valuesOf(tables, key)
			if problem := agreement(values); problem != "" {
				p.Conflicts = append(p.Conflicts, Difference{Kind: KindKV, Subject: kvSubject(ns, key), Problem: problem, Values: values})
				continue
			}
			ch := KVChange{Namespace: ns, Key: key, Value: *firstValue(values), Action: ActionSet}
			if old, ok := target.kv[ns][key]; ok {
				ch.Action = ActionUnchanged
				if old != ch.Value {
					ch.Action, ch.Old = ActionUpdate, &old
				}
			}
			p.KV = append(p.KV, ch)
		}
	}
}

// markUnstorable turns every key to set or update that the target cannot
// store, as the import would send it, into ActionCannotStore.
func (p *Plan) markUnstorable(c *nsclient.Client) {
	for i := range p.KV {
		ch := &p.KV[i]
		if !ch.writes() {
			continue
		}
		if err := c.CheckPutKV(ch.Namespace, ch.Key, ch.Value); err != nil {
			ch.Action, ch.Reason = ActionCannotStore, err.Error()
		}
	}
}

// CannotStore counts the keys the target cannot store.
func (p *Plan) CannotStore() int {
	n := 0
	for _, ch := range p.KV {
		if ch.Action == ActionCannotStore {
			n++
		}
	}
	return n
}

// planPerms plans a wipe for every group that the references having its
// queues have all wiped; a group wiped on some and not on others is a
// conflict.
func (p *Plan) planPerms(refs []*serverState, target *serverState) {
	tallies := make([]map[string]*tally, len(refs))
	for i, s := range refs {
		tallies[i] = s.perm
	}
	for _, name := range unionKeys(tallies) {
		values := make([]*string, len(refs))
		wiped, writable := false, false
		for i, t := range tallies {
			if t[name] == nil {
				continue
			}
			v := t[name].value()
			values[i] = &v
			wiped = wiped || t[name].wiped()
			writable = writable || !t[name].wiped()
		}
		switch {
		case wiped && writable:
			p.Conflicts = append(p.Conflicts, Difference{Kind: KindWritePerm, Subject: name, Problem: Different, Values: values})
			continue
		case !wiped:
			continue
		}
		ch := PermChange{Broker: name, Action: ActionWipe}
		switch t := target.perm[name]; {
		case t == nil:
			ch.Action = ActionNotRegistered
		case t.wiped():
			ch.Action = ActionAlreadyWiped
		}
		p.Perms = append(p.Perms, ch)
	}
}

// Apply sends the plan's writes to its target as ordinary requests, which
// RaftNS replicates: PUT_KV_CONFIG for each key to set or update (not the
// keys it cannot store), then WIPE_WRITE_PERM_OF_BROKER for each group to
// wipe. It refuses a plan with
// conflicts and stops at the first failed write; every write is
// idempotent, so planning and applying again is safe. done counts the
// writes that succeeded.
func Apply(ctx context.Context, c *nsclient.Client, p *Plan, opts Options) (done int, err error) {
	if len(p.Conflicts) > 0 {
		return 0, fmt.Errorf("%w on %d keys or broker groups; nothing written", ErrConflict, len(p.Conflicts))
	}
	r := reader{c: c, timeout: opts.withDefaults().RequestTimeout}
	for _, ch := range p.KV {
		if !ch.writes() {
			continue
		}
		err := r.call(ctx, p.Target, "put KV "+kvSubject(ch.Namespace, ch.Key), func(ctx context.Context) error {
			return c.PutKV(ctx, p.Target, ch.Namespace, ch.Key, ch.Value)
		})
		if err != nil {
			return done, err
		}
		done++
	}
	for _, ch := range p.Perms {
		if ch.Action != ActionWipe {
			continue
		}
		err := r.call(ctx, p.Target, "wipe write permission of "+ch.Broker, func(ctx context.Context) error {
			_, err := c.WipeWritePerm(ctx, p.Target, ch.Broker)
			return err
		})
		if err != nil {
			return done, err
		}
		done++
	}
	return done, nil
}

// firstValue returns the first value that is present.
func firstValue(values []*string) *string {
	for _, v := range values {
		if v != nil {
			return v
		}
	}
	return nil
}
