package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseProcStatCPU_Fields(t *testing.T) {
	cases := []struct {
		name    string
		stat    string
		want    float64
		wantErr bool
	}{
		{"plain name", "1234 (raftns) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 100 0 0", 3.0, false},
		{"name with spaces and parentheses", "99 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 7 3 0 0", 0.10, false},
		{"no parenthesis", "1234 raftns S 1 2", 0, true},
		{"too few fields", "1 (x) S 1 2 3", 0, true},
		{"non-numeric times", "1 (x) S 1 2 3 4 5 6 7 8 9 10 a b", 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseProcStatCPU(tc.stat)
			if tc.wantErr {
				if !errors.Is(err, errBadProcStat) {
					t.Fatalf("err = %v, want errBadProcStat", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("parseProcStatCPU = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestParseMetrics_UnlabelledSamples(t *testing.T) {
	text := `# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 2.4117248e+07
ns_forwarded_total{direction="out"} 7
ns_register_written_total 42
garbage
ns_bad_value abc
`
	got, err := parseMetrics(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"process_resident_memory_bytes": 24117248, "ns_register_written_total": 42}
	if len(got) != len(want) {
		t.Fatalf("parseMetrics = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("%s = %v, want %v", k, got[k], v)
		}
	}
	if s := sumMetric([]map[string]float64{got, got, {}}, "ns_register_written_total"); s != 84 {
		t.Fatalf("sumMetric = %v, want 84", s)
	}
}

func TestParseShape_BrokersByTopics(t *testing.T) {
	cases := []struct {
		in      string
		want    shape
		wantErr bool
	}{
		{"100x100", shape{100, 100}, false},
		{" 1000X20 ", shape{1000, 20}, false},
		{"100", shape{}, true},
		{"0x10", shape{}, true},
		{"10x-1", shape{}, true},
		{"axb", shape{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseShape(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("parseShape(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestSizeCell_Units(t *testing.T) {
	cases := []struct {
		in   int64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1536, "1.5 KiB"},
		{512 << 10, "512 KiB"},
		{3 << 20, "3.0 MiB"},
		{20 << 20, "20 MiB"},
		{-2048, "-2.0 KiB"},
	}
	for _, tc := range cases {
		if got := sizeCell(tc.in); got != tc.want {
			t.Errorf("sizeCell(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCell_Formatting(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{"x", "x"},
		{1234.5678, "1235"},
		{12.345, "12.3"},
		{1.23456, "1.23"},
		{1500 * time.Microsecond, "1.50"},
		{42, "42"},
	}
	for _, tc := range cases {
		if got := cell(tc.in); got != tc.want {
			t.Errorf("cell(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
