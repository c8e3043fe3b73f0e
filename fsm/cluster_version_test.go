package fsm

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/snapshots"
)

func TestClusterVersion_RaisedOnlyUpwardAndKeptInSnapshots(t *testing.T) {
	f := New(testLogger(t))
	if f.ClusterVersion() != buildinfo.MustParse(buildinfo.Baseline) || f.Gate().Allows(feature.ClusterVersion) {
		t.Fatalf("a new cluster runs at %s, want the baseline with nothing gated allowed", f.ClusterVersion())
	}
	before := snapshotBytes(t, f)
	f.Apply(makeLog(t, 1, SetClusterVersionType, &state.SetClusterVersion{Version: "0.2.0"}))
	for i, lower := range []string{"0.1.5", "0.2.0", "bad", ""} {
		f.Apply(makeLog(t, uint64(2+i), SetClusterVersionType, &state.SetClusterVersion{Version: lower}))
	}
	if f.ClusterVersion().String() != "0.2.0" || !f.Gate().Allows(feature.ClusterVersion) {
		t.Fatalf("cluster version %s after raising to 0.2.0 and trying lower and bad ones", f.ClusterVersion())
	}
	if f.LastChangeIndex() != 1 {
		t.Fatalf("last change %d: only the raise changes the state", f.LastChangeIndex())
	}
	g := New(testLogger(t))
	if err := g.Restore(io.NopCloser(bytes.NewReader(snapshotBytes(t, f)))); err != nil {
		t.Fatal(err)
	}
	if g.ClusterVersion().String() != "0.2.0" || g.Digest() != f.Digest() {
		t.Fatalf("restored cluster version %s, digests equal %v", g.ClusterVersion(), g.Digest() == f.Digest())
	}
	// Before the raise the snapshot has no cluster-version record, so the
	// releases before it read it as they always did.
	if recordTypes(t, before)["cluster-version"] || !recordTypes(t, snapshotBytes(t, f))["cluster-version"] {
		t.Fatal("the cluster-version record must be written once the version was raised, and only then")
	}
}

// recordTypes lists the record types of a snapshot.
func recordTypes(t *testing.T, b []byte) map[string]bool {
	t.Helper()
	sr, err := snapshots.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for {
		typ, _, err := sr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		name, _ := state.RecordTypeName(typ)
		out[name] = true
	}
}

// A command the table marks with a feature is written in the versioned
// envelope of the feature's release, and reads back as itself.
func TestNeeds_MarkedCommandsTravelInTheVersionedEnvelope(t *testing.T) {
	f := feature.Feature{Name: "test-kv", Since: buildinfo.Current()}
	spec := commands[PutKVType]
	marked := needs(*spec, f)
	commands[PutKVType] = &marked
	defer func() { commands[PutKVType] = spec }()

	if NeededFeature(PutKVType) != f || !NeededFeature(DeleteKVType).IsZero() {
		t.Fatal("NeededFeature does not read the table")
	}
	cmd := &state.PutKV{Namespace: "n", Key: "k", Value: "v", HasValue: true}
	buf, err := Encode(PutKVType, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if CommandType(buf[0]) != versionedType || string(buf[2:2+int(buf[1])]) != f.Since.String() {
		t.Fatalf("entry %x does not start with the versioned envelope of %s", buf[:8], f.Since)
	}
	typ, got, err := Decode(buf)
	if err != nil || typ != PutKVType || *got.(*state.PutKV) != *cmd {
		t.Fatalf("Decode = %v, %+v, %v", typ, got, err)
	}
	if et, err := EntryType(buf); err != nil || et != PutKVType {
		t.Fatalf("EntryType = %v, %v", et, err)
	}
}
