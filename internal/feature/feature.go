// Package feature is the cluster-wide version gate. During a rolling
// upgrade members of two releases form one cluster; a log entry type, a
// snapshot record or an RPC that the older release does not know must
// never reach it. Every such addition is a Feature declared in
// features.go with the first release that reads it. A Gate answers
// whether a feature may be used: only once the cluster version, which an
// operator raises with "raftnsctl upgrade finalize" after every member
// runs the new release, has reached the feature's release. Until then a
// member can still be downgraded.
package feature

import (
	"fmt"
	"sync"

	"github.com/raftns/raftns/internal/buildinfo"
)

// Feature is one addition older releases cannot read.
type Feature struct {
	// Name identifies it in messages and in the table.
	Name string
	// Since is the first release that reads it.
	Since buildinfo.Version
}

// IsZero reports the zero Feature: nothing gated.
func (f Feature) IsZero() bool { return f.Name == "" }

func (f Feature) String() string { return fmt.Sprintf("%s (release %s)", f.Name, f.Since) }

var (
	tableMu sync.Mutex
	table   []Feature
)

// declare adds a feature to the table; a name declared twice or a
// release this build is older than is a mistake in features.go, caught
// when the package loads.
func declare(name, since string) Feature {
	f := Feature{Name: name, Since: buildinfo.MustParse(since)}
	if buildinfo.Current().Less(f.Since) {
		panic(fmt.Sprintf("feature %s needs release %s but this build is %s: bump buildinfo.Release", name, since, buildinfo.Release))
	}
	tableMu.Lock()
	defer tableMu.Unlock()
	for _, g := range table {
		if g.Name == name {
			panic("feature " + name + " declared twice")
		}
	}
	table = append(table, f)
	return f
}

// All returns every declared feature.
func All() []Feature {
	tableMu.Lock()
	defer tableMu.Unlock()
	return append([]Feature(nil), table...)
}

// Gate answers whether features may be used, from the cluster version:
// the release every member is known to run at least, replicated so every
// member answers alike.
type Gate struct {
	version func() buildinfo.Version
}

// NewGate returns a gate reading the cluster version from version.
func NewGate(version func() buildinfo.Version) *Gate { return &Gate{version: version} }

// Allows reports whether f may be used: the cluster version has reached
// f's release.
func (g *Gate) Allows(f Feature) bool { return f.IsZero() || !g.version().Less(f.Since) }

// Check is Allows as an error that says what to do, for refusing a
// request that needs f.
func (g *Gate) Check(f Feature) error {
	if g.Allows(f) {
		return nil
	}
	return &NotEnabledError{Feature: f, ClusterVersion: g.version()}
}

// ClusterVersion is the cluster version the gate reads.
func (g *Gate) ClusterVersion() buildinfo.Version { return g.version() }

// NotEnabledError refuses the use of a feature the cluster version does
// not reach yet.
type NotEnabledError struct {
	Feature        Feature
	ClusterVersion buildinfo.Version
}

func (e *NotEnabledError) Error() string {
	return fmt.Sprintf("feature %s needs cluster version %s; the cluster runs at %s: once every member runs release %s "+
		"or newer, raise it with raftnsctl upgrade finalize", e.Feature.Name, e.Feature.Since, e.ClusterVersion,
		e.Feature.Since)
}
