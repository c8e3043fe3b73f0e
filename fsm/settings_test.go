package fsm

import (
	"bytes"
	"github.com/raftns/raftns/fsm/state"
	"io"
	"maps"
	"strconv"
	"strings"
	"testing"
)

func TestSettings_MergeSeedAndNoChange(t *testing.T) {
	h := newHarness(t)
	if _, held := h.f.Settings(state.SettingsNamesrv); held {
		t.Fatal("a new FSM holds settings")
	}
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"orderMessageEnable": "true"}})
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"enableTopicList": "false"}})
	got, held := h.f.Settings(state.SettingsNamesrv)
	want := map[string]string{"orderMessageEnable": "true", "enableTopicList": "false"}
	if !held || !maps.Equal(got, want) {
		t.Fatalf("settings = %v, %v; want %v", got, held, want)
	}
	gen := h.f.Generation()
	// A seed for a held scope, a repeated value, an empty scope: nothing.
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"orderMessageEnable": "false"}, Seed: true, From: "n2"})
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"orderMessageEnable": "true"}})
	h.apply(SetSettingsType, &state.SetSettings{Values: map[string]string{"x": "y"}})
	if h.f.Generation() != gen {
		t.Fatal("a seed for a held scope, a repeated value or a scope-less update changed the state")
	}
	// A seed of an empty scope holds it, even without values.
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsController, Seed: true, From: "n1"})
	if got, held := h.f.Settings(state.SettingsController); !held || len(got) != 0 {
		t.Fatalf("controller settings after an empty seed = %v, %v", got, held)
	}
}

func TestSettings_BoundedKeys(t *testing.T) {
	h := newHarness(t)
	big := map[string]string{}
	for i := range state.MaxSettingsPerScope + 1 {
		big["k"+strconv.Itoa(i)] = "v"
	}
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: big})
	if _, held := h.f.Settings(state.SettingsNamesrv); held {
		t.Fatalf("an update of %d keys was applied", len(big))
	}
}

func TestSettings_ObserverHearsChangesAndRestores(t *testing.T) {
	h := newHarness(t)
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"a": "1"}})
	var heard []string
	h.f.WatchSettings(func(scope string, values map[string]string, held bool) {
		heard = append(heard, scope+":"+state.SettingsDetail(values)+":"+strconv.FormatBool(held))
	})
	if strings.Join(heard, ",") != "namesrv:a=1:true,controller::false" {
		t.Fatalf("on install heard %v", heard)
	}
	heard = nil
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsController, Values: map[string]string{"enableElectUncleanMaster": "true"}})
	if strings.Join(heard, ",") != "controller:enableElectUncleanMaster=true:true" {
		t.Fatalf("on change heard %v", heard)
	}
	snap := snapshotBytes(t, h.f)
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"a": "2"}})
	heard = nil
	if err := h.f.Restore(io.NopCloser(bytes.NewReader(snap))); err != nil {
		t.Fatal(err)
	}
	if strings.Join(heard, ",") != "namesrv:a=1:true,controller:enableElectUncleanMaster=true:true" {
		t.Fatalf("on restore heard %v", heard)
	}
}

func TestSettings_SnapshotRoundTripAndOlderSnapshots(t *testing.T) {
	h := newHarness(t)
	h.apply(SetSettingsType, &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"orderMessageEnable": "true"}, Seed: true, From: "n1"})
	f := New(testLogger(t))
	if err := f.Restore(io.NopCloser(bytes.NewReader(snapshotBytes(t, h.f)))); err != nil {
		t.Fatal(err)
	}
	if got, held := f.Settings(state.SettingsNamesrv); !held || got["orderMessageEnable"] != "true" || f.Digest() != h.f.Digest() {
		t.Fatalf("restored settings = %v, %v", got, held)
	}
	// The released fixtures hold no settings record and restore to a
	// cluster that holds none.
	for _, name := range []string{fixtureAudit} {
		g, _ := restoreFixture(t, name, New(testLogger(t)))
		if _, held := g.Settings(state.SettingsNamesrv); held {
			t.Fatalf("fixture %s restored with settings", name)
		}
	}
}
