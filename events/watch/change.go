package watch

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is a set of the kinds of state a change touched.
type Kind uint8

// The kinds of state a watcher can ask about.
const (
	// Route: a topic's route (queue data, write permission, brokers).
	Route Kind = 1 << iota
	// Broker: a broker registered, unregistered or expired.
	Broker
	// KV: the KV config.
	KV
	// Member: the member directory, drains, the cluster version.
	Member
	// Audit: a record was added to the audit trail.
	Audit
	// Controller: the controller's replica groups.
	Controller

	// AllKinds is every kind.
	AllKinds = Route | Broker | KV | Member | Audit | Controller
)

var kindNames = []struct {
	k    Kind
	name string
}{{Route, "route"}, {Broker, "broker"}, {KV, "kv"}, {Member, "member"}, {Audit, "audit"}, {Controller, "controller"}}

// Names lists the kinds in k.
func (k Kind) Names() []string {
	var out []string
	for _, kn := range kindNames {
		if k&kn.k != 0 {
			out = append(out, kn.name)
		}
	}
	return out
}

// ParseKinds reads a comma-separated list of kind names; "" is every kind.
func ParseKinds(s string) (Kind, error) {
	if s == "" {
		return AllKinds, nil
	}
	var k Kind
	for name := range strings.SplitSeq(s, ",") {
		i := slices.IndexFunc(kindNames, func(kn struct {
			k    Kind
			name string
		}) bool {
			return kn.name == strings.TrimSpace(name)
		})
		if i < 0 {
			return 0, fmt.Errorf("kind %q: want route, broker, kv, member, audit or controller", name)
		}
		k |= kindNames[i].k
	}
	return k, nil
}

// Change is one applied log entry (or restore) that changed what a reader
// can see.
type Change struct {
	Index uint64
	Kinds Kind
	// Topics whose route or KV the change touched; AllTopics when it may
	// have touched any (a broker's departure, a restore) or more than are
	// listed.
	Topics    []string
	AllTopics bool
	// Clusters the change touched; empty when it may touch any or none
	// in particular.
	Clusters []string
}

// Filter selects changes: of one of Kinds (0: any), of Topic's route or
// KV, of Cluster.
type Filter struct {
	Kinds   Kind
	Topic   string
	Cluster string
}

// Matches reports whether f selects c.
func (f Filter) Matches(c Change) bool {
	if f.Kinds != 0 && c.Kinds&f.Kinds == 0 {
		return false
	}
	if f.Topic != "" && (c.Kinds&(Route|KV|Broker) == 0 || !c.AllTopics && !slices.Contains(c.Topics, f.Topic)) {
		return false
	}
	return f.Cluster == "" || len(c.Clusters) == 0 || slices.Contains(c.Clusters, f.Cluster)
}
