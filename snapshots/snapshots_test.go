package snapshots

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"runtime"
	"testing"
)

type record struct {
	typ     uint8
	payload []byte
}

func sampleRecords() []record {
	return []record{
		{1, []byte("meta")},
		{2, nil},
		{4, bytes.Repeat([]byte{0xAB}, 3000)},
		{255, []byte{0}},
		{4, []byte("topic")},
	}
}

func writeSnapshot(t testing.TB, recs []record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatalf("NewWriter: %v", err)
	}
	for _, r := range recs {
		if err := w.WriteRecord(r.typ, r.payload); err != nil {
			t.Fatalf("WriteRecord(%d): %v", r.typ, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return buf.Bytes()
}

// readAll reads every record; it returns the first error other than io.EOF.
func readAll(data []byte) ([]record, error) {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var out []record
	for {
		typ, p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, record{typ, p})
	}
}

func TestReader_RoundTrip(t *testing.T) {
	cases := []struct {
		name string
		recs []record
	}{
		{"empty", nil},
		{"one", []record{{7, []byte("x")}}},
		{"several", sampleRecords()},
		{"large", []record{{3, bytes.Repeat([]byte("0123456789"), 300_000)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(writeSnapshot(t, tc.recs))
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if len(got) != len(tc.recs) {
				t.Fatalf("records = %d, want %d", len(got), len(tc.recs))
			}
			for i := range got {
				if got[i].typ != tc.recs[i].typ || !bytes.Equal(got[i].payload, tc.recs[i].payload) {
					t.Fatalf("record %d = type %d len %d, want type %d len %d",
						i, got[i].typ, len(got[i].payload), tc.recs[i].typ, len(tc.recs[i].payload))
				}
			}
		})
	}
}

func TestReader_EOFIsSticky(t *testing.T) {
	r, err := NewReader(bytes.NewReader(writeSnapshot(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, _, err := r.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("Next #%d = %v, want io.EOF", i, err)
		}
	}
}

func TestReader_CorruptByteAnywhereFails(t *testing.T) {
	data := writeSnapshot(t, sampleRecords())
	for i := range data {
		for _, flip := range []byte{0x01, 0x80, 0xFF} {
			bad := bytes.Clone(data)
			bad[i] ^= flip
			if _, err := readAll(bad); err == nil {
				t.Fatalf("flipping byte %d with %#x: read succeeded", i, flip)
			}
		}
	}
}

func TestReader_TruncatedFails(t *testing.T) {
	data := writeSnapshot(t, sampleRecords())
	for n := 0; n < len(data); n++ {
		_, err := readAll(data[:n])
		if err == nil {
			t.Fatalf("truncated to %d of %d bytes: read succeeded", n, len(data))
		}
		if n >= headerSize && !errors.Is(err, ErrTruncated) {
			t.Fatalf("truncated to %d bytes: err = %v, want ErrTruncated", n, err)
		}
	}
}

func TestReader_HeaderErrors(t *testing.T) {
	good := writeSnapshot(t, nil)
	withVersion := func(v uint16) []byte {
		b := bytes.Clone(good)
		binary.BigEndian.PutUint16(b[4:6], v)
		return b
	}
	withFlags := bytes.Clone(good)
	withFlags[7] = 1
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"bad magic", append([]byte("JSON"), good[4:]...), ErrBadMagic},
		{"version 0", withVersion(0), ErrUnsupportedVersion},
		{"version 2", withVersion(2), ErrUnsupportedVersion},
		{"flags set", withFlags, ErrBadHeader},
		{"empty input", nil, ErrTruncated},
		{"short header", good[:5], ErrTruncated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewReader(bytes.NewReader(tc.data))
			if !errors.Is(err, tc.want) {
				t.Fatalf("NewReader err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestReader_TrailingDataFails(t *testing.T) {
	data := append(writeSnapshot(t, sampleRecords()), 0)
	if _, err := readAll(data); !errors.Is(err, ErrTrailingData) {
		t.Fatalf("err = %v, want ErrTrailingData", err)
	}
}

func TestReader_LimitsEnforced(t *testing.T) {
	data := writeSnapshot(t, []record{{1, make([]byte, 1000)}})
	cases := []struct {
		name   string
		limits Limits
		want   error
	}{
		{"record limit", Limits{MaxRecordSize: 999}, ErrRecordTooLarge},
		{"total limit", Limits{MaxTotalSize: 500}, ErrTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReaderLimits(bytes.NewReader(data), tc.limits)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := r.Next(); !errors.Is(err, tc.want) {
				t.Fatalf("Next err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestReader_HugeLengthDoesNotAllocateAhead(t *testing.T) {
	data := writeSnapshot(t, nil)[:headerSize]
	data = append(data, 9, 0x03, 0xFF, 0xFF, 0xFF) // claims ~64 MiB, has nothing
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readAll(data)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTruncated) {
		t.Fatalf("err = %v, want ErrTruncated", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Fatalf("allocated %d bytes for an empty record claiming 64 MiB", got)
	}
}

func TestWriter_RejectsBadUse(t *testing.T) {
	w, err := NewWriter(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRecord(0, nil); !errors.Is(err, ErrReservedType) {
		t.Fatalf("type 0: err = %v, want ErrReservedType", err)
	}
	if err := w.WriteRecord(1, make([]byte, DefaultMaxRecordSize+1)); !errors.Is(err, ErrRecordTooLarge) {
		t.Fatalf("oversized: err = %v, want ErrRecordTooLarge", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := w.WriteRecord(1, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: err = %v, want ErrClosed", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second Close: err = %v, want ErrClosed", err)
	}
}

type failWriter struct{ after int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.after < len(p) {
		return 0, errors.New("disk full")
	}
	f.after -= len(p)
	return len(p), nil
}

func TestWriter_PropagatesWriteError(t *testing.T) {
	w, err := NewWriter(&failWriter{after: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRecord(1, make([]byte, 100<<10)); err == nil {
		t.Fatal("WriteRecord of more than the buffer into a failing writer succeeded")
	}
	if err := w.Close(); err == nil {
		t.Fatal("Close after a failed write succeeded")
	}
}

func TestInspect_Summarises(t *testing.T) {
	data := writeSnapshot(t, sampleRecords())
	s, err := Inspect(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	want := Summary{
		Version:      1,
		Records:      map[uint8]int{1: 1, 2: 1, 4: 2, 255: 1},
		TotalRecords: 5,
		PayloadBytes: 4 + 0 + 3000 + 1 + 5,
		ChecksumOK:   true,
	}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("Inspect = %+v, want %+v", s, want)
	}
}

func TestInspect_ReportsChecksumFailure(t *testing.T) {
	data := writeSnapshot(t, sampleRecords())
	data[headerSize+recordHdrSize] ^= 0xFF // first payload byte
	s, err := Inspect(bytes.NewReader(data))
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
	if s.ChecksumOK || s.TotalRecords != 5 {
		t.Fatalf("summary = %+v, want 5 records and ChecksumOK false", s)
	}
}
