package state

import (
	"fmt"
	"maps"
)

// recSettings is the snapshot record of one scope's settings
// (settingsRecord), one per scope the cluster holds settings for; none in
// a cluster that never held any, so its snapshots are what an older
// release writes.
const recSettings uint8 = 17

// settingsRecord is the recSettings snapshot record.
type settingsRecord struct {
	Scope  string
	Values map[string]string
	From   string `codec:",omitempty"`
}

// settingsTable holds the run-time settings the cluster holds, by scope
// (settings.go).
type settingsTable struct{ m map[string]clusterSettings }

var settingsSlot = slotOf[*settingsTable]()

// settings is the run-time settings table of s.
func (s *State) settings() map[string]clusterSettings {
	return s.tables[settingsSlot].(*settingsTable).m
}

func newSettings() table { return &settingsTable{m: map[string]clusterSettings{}} }

func (t *settingsTable) thaw() table { return &settingsTable{m: maps.Clone(t.m)} }

func (t *settingsTable) walk(emit emitFunc) error {
	for _, scope := range sortedKeys(t.m) {
		cur := t.m[scope]
		if err := emit(recSettings, &settingsRecord{Scope: scope, Values: cur.values, From: cur.from}); err != nil {
			return err
		}
	}
	return nil
}

func (t *settingsTable) restore(_ *restorer, _ uint8, payload []byte) error {
	r, err := decode[settingsRecord](payload)
	if err != nil {
		return err
	}
	switch {
	case r.Scope == "":
		return errSettingsScope
	case len(r.Values) > MaxSettingsPerScope:
		return fmt.Errorf("settings of %s hold %d keys, more than %d", r.Scope, len(r.Values), MaxSettingsPerScope)
	}
	if _, ok := t.m[r.Scope]; ok {
		return duplicate("settings scope", r.Scope)
	}
	if _, ok := r.Values[""]; ok {
		return errSettingsKey
	}
	values := r.Values
	if values == nil {
		values = map[string]string{}
	}
	t.m[r.Scope] = clusterSettings{values: values, from: r.From}
	return nil
}
