package state

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Scopes of replicated run-time settings: the request pairs that read and
// change them.
const (
	// SettingsNamesrv are UPDATE_NAMESRV_CONFIG's settings.
	SettingsNamesrv = "namesrv"
	// SettingsController are UPDATE_CONTROLLER_CONFIG's settings.
	SettingsController = "controller"
)

// MaxSettingsPerScope bounds the keys one scope holds, so that updates
// naming ever new keys cannot grow the state without limit.
const MaxSettingsPerScope = 1024

// SetSettings changes run-time settings of one scope for the whole
// cluster (docs/operators/operations.md, "Run-time settings"). Values are merged
// into what the scope holds. A Seed is the first value set of a cluster
// whose members kept settings of their own (the upgrade to the release
// that replicates them): it applies only while the scope holds nothing.
type SetSettings struct {
	Scope  string
	Values map[string]string
	Seed   bool
	// From names the member whose values a Seed carries, for logs.
	From string `codec:",omitempty"`
}

// clusterSettings are one scope's settings; the map is never changed in
// place once stored.
type clusterSettings struct {
	values map[string]string
	from   string
}

var (
	errSettingsScope = errors.New("settings without a scope")
	errSettingsKey   = errors.New("setting without a name")
)

// ApplySetSettings merges c into its scope; a Seed for a scope that holds
// settings, a change to what is already held, or one that would exceed
// MaxSettingsPerScope changes nothing.
func (s *State) ApplySetSettings(c *SetSettings) bool {
	if c.Scope == "" {
		return false
	}
	cur, held := s.settings()[c.Scope]
	if c.Seed && held {
		return false
	}
	next := maps.Clone(cur.values)
	if next == nil {
		next = map[string]string{}
	}
	changed := !held
	for k, v := range c.Values {
		if k == "" {
			continue
		}
		if old, ok := next[k]; !ok || old != v {
			next[k] = v
			changed = true
		}
	}
	if !changed || len(next) > MaxSettingsPerScope {
		return false
	}
	from := cur.from
	if c.Seed {
		from = c.From
	}
	s.settings()[c.Scope] = clusterSettings{values: next, from: from}
	return true
}

// secretSetting matches setting names whose values are never written to
// the audit trail or logs: only that they changed is.
var secretSetting = regexp.MustCompile(`(?i)secret|password|passwd|token|credential|accesskey|private`)

// SecretSetting reports a setting name whose value is never shown: only
// that it changed is.
func SecretSetting(key string) bool { return secretSetting.MatchString(key) }

// SettingsDetail lists key=value pairs in key order, hiding the values of
// secret-looking keys.
func SettingsDetail(values map[string]string) string {
	keys := slices.Sorted(maps.Keys(values))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := values[k]
		if SecretSetting(k) {
			v = "(hidden)"
		}
		parts = append(parts, fmt.Sprintf("%s=%s", k, v))
	}
	return strings.Join(parts, " ")
}

// settingsSubject is a SetSettings entry's audit record, named as the
// records of updates refused before they became entries.
func settingsSubject(c *SetSettings) AuditRecord {
	what := c.Scope
	if what == SettingsNamesrv {
		what = "name server"
	}
	if c.Seed {
		what += " (seed from " + c.From + ")"
	}
	return AuditRecord{Kind: AuditConfigUpdate, Detail: what + ": " + SettingsDetail(c.Values)}
}

// Settings returns a copy of the run-time settings the cluster holds for
// scope, and whether it holds any (a scope is held from its first update
// or seed on).
func (s *State) Settings(scope string) (map[string]string, bool) {
	cur, ok := s.settings()[scope]
	return maps.Clone(cur.values), ok
}

// SettingsFrom returns the settings the cluster holds for scope and the
// member whose seed began them ("" when an update did).
func (s *State) SettingsFrom(scope string) (map[string]string, string) {
	cur := s.settings()[scope]
	return maps.Clone(cur.values), cur.from
}

// HeldSettings returns the values s holds for scope, not copied (a stored
// map is never changed in place), and whether it holds any.
func (s *State) HeldSettings(scope string) (map[string]string, bool) {
	cur, ok := s.settings()[scope]
	return cur.values, ok
}

// SettingsScopes lists the scopes s holds settings for, sorted.
func (s *State) SettingsScopes() []string { return sortedKeys(s.settings()) }
