package snapshots

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, never
// hand out a record larger than the limit, and report io.EOF only for input
// whose re-encoding is byte-identical (the checksum really verified).
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "snapshots", "*.snap"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(writeSnapshot(f, sampleRecords()))
	f.Add(writeSnapshot(f, nil))
	f.Add([]byte("RNSS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		limits := Limits{MaxRecordSize: 1 << 16, MaxTotalSize: 1 << 20}
		r, err := NewReaderLimits(bytes.NewReader(data), limits)
		if err != nil {
			return
		}
		var recs []record
		for {
			typ, p, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return
			}
			if len(p) > limits.MaxRecordSize {
				t.Fatalf("record of %d bytes passed a %d limit", len(p), limits.MaxRecordSize)
			}
			recs = append(recs, record{typ, p})
		}
		if again := writeSnapshot(t, recs); !bytes.Equal(again, data) {
			t.Fatalf("accepted input differs from its re-encoding")
		}
	})
}

// FuzzParseKVConfigJSON checks the kvConfig.json parser never panics and that
// whatever it accepts survives a format/parse round trip.
func FuzzParseKVConfigJSON(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("..", "testdata", "snapshots", "kvConfig.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"configTable":{"NS":{"k":"v"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		table, err := ParseKVConfigJSON(data)
		if err != nil {
			return
		}
		if _, err := ParseKVConfigJSON(FormatKVConfigJSON(table)); err != nil {
			t.Fatalf("formatted output does not parse: %v", err)
		}
	})
}
