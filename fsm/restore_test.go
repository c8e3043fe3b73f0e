package fsm

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/raftns/raftns/snapshots"
)

func TestFSM_Restore_RejectsBadSnapshots(t *testing.T) {
	good := snapshotBytes(t, fixtureFSM(t))
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	version := bytes.Clone(good)
	version[5] = 9
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"flipped byte", flipped, nil},
		{"truncated", good[:len(good)-3], snapshots.ErrTruncated},
		{"unknown format version", version, snapshots.ErrUnsupportedVersion},
		{"not a snapshot", []byte(`{"configTable":{}}`), snapshots.ErrBadMagic},
		{"unknown record type", withRecord(t, good, 200, []byte{0x80}), ErrSnapshotRecord},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fixtureFSM(t)
			before, gen, applied := reads(f), f.Generation(), f.AppliedIndex()
			err := restoreBytes(f, tc.data)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("Restore err = %v, want %v", err, tc.want)
			}
			if !reflect.DeepEqual(reads(f), before) || f.Generation() != gen || f.AppliedIndex() != applied {
				t.Fatal("a rejected snapshot changed the state")
			}
			if n, _ := f.Restores(); n != 0 {
				t.Fatalf("a rejected snapshot counts as restored (%d)", n)
			}
		})
	}
}

// withRecord returns snapshot data with one more record appended.
func withRecord(t *testing.T, data []byte, typ uint8, payload []byte) []byte {
	t.Helper()
	sr, err := snapshots.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	sw, err := snapshots.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for {
		rt, rp, err := sr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := sw.WriteRecord(rt, rp); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.WriteRecord(typ, payload); err != nil {
		t.Fatal(err)
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
