package fsm

import (
	"slices"

	"github.com/raftns/raftns/fsm/state"
)

// applySettingsEntry applies a SetSettings entry and tells the observers
// about a change.
func (f *FSM) applySettingsEntry(s *state.State, c *state.SetSettings, _ uint64) bool {
	if !s.ApplySetSettings(c) {
		return false
	}
	f.tellSettings(s, c.Scope)
	return true
}

// Settings returns a copy of the run-time settings the cluster holds for
// scope, and whether it holds any (a scope is held from its first update
// or seed on).
func (f *FSM) Settings(scope string) (map[string]string, bool) {
	return read2(f, func(s *state.State) (map[string]string, bool) { return s.Settings(scope) })
}

// WatchSettings calls o at once with every scope's current settings, then
// on every change, so that an observer installed after Raft started
// misses nothing.
func (f *FSM) WatchSettings(o SettingsObserver) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, scope := range []string{state.SettingsNamesrv, state.SettingsController} {
		values, held := f.st.HeldSettings(scope)
		o(scope, values, held)
	}
	f.settingsObservers = append(f.settingsObservers, o)
}

// tellSettings tells the observers about scope, or with none (after a
// restore) about every known scope. f.mu is held.
func (f *FSM) tellSettings(s *state.State, scope string) {
	scopes := []string{scope}
	if scope == "" {
		scopes = []string{state.SettingsNamesrv, state.SettingsController}
		for _, scope := range s.SettingsScopes() {
			if !slices.Contains(scopes, scope) {
				scopes = append(scopes, scope)
			}
		}
	}
	for _, scope := range scopes {
		values, held := s.HeldSettings(scope)
		for _, o := range f.settingsObservers {
			o(scope, values, held)
		}
	}
}

// SettingsFrom returns the settings the cluster holds for scope and the
// member whose seed began them ("" when an update did).
func (f *FSM) SettingsFrom(scope string) (map[string]string, string) {
	return read2(f, func(s *state.State) (map[string]string, string) { return s.SettingsFrom(scope) })
}

// SettingsObserver hears a scope's settings whenever they change, and
// every scope's after a restore (held false for one the snapshot does not
// hold). It is called under the FSM's lock: it must return quickly and not
// call back into the FSM; values must not be changed.
type SettingsObserver func(scope string, values map[string]string, held bool)
