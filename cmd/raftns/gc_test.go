package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/gctarget"
)

func TestConfig_GCPercentDefaultsFileFlagsAndEnvironment(t *testing.T) {
	noEnv := func(string) string { return "" }
	gogc50 := func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	}
	cases := []struct {
		name       string
		args       []string
		file       string
		getenv     func(string) string
		want       int
		wantSource string
		wantSet    bool
		// wantShown is the gcPercent property raftns -p shows.
		wantShown string
	}{
		{"default", nil, "", noEnv, gctarget.Default, "default", true, "300"},
		{"GOGC decides when nothing is configured", nil, "", gogc50, 0, "GOGC=50", false, "50"},
		{"file", nil, "gcPercent=150", gogc50, 150, "configured", true, "150"},
		{"flag over file", []string{"--gc-percent", "200"}, "gcPercent=150", noEnv, 200, "configured", true, "200"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.file != "" {
				args = append([]string{"-c", writeFile(t, "f.properties", tc.file)}, args...)
			}
			cfg, err := parseConfig(args, &bytes.Buffer{})
			if err != nil {
				t.Fatal(err)
			}
			got, source, set := cfg.gcTarget(tc.getenv)
			if got != tc.want || source != tc.wantSource || set != tc.wantSet {
				t.Fatalf("gcTarget = %d, %q, %v; want %d, %q, %v", got, source, set, tc.want, tc.wantSource, tc.wantSet)
			}
			if shown := cfg.gcPercentProperty(tc.getenv); shown != tc.wantShown {
				t.Fatalf("gcPercent property = %q, want %q", shown, tc.wantShown)
			}
		})
	}
}

// TestConfig_PrintedGCPercentIsTheOneInForce: raftns -p shows GOGC's value
// when the environment decides the heap target, not the default it
// overrides.
func TestConfig_PrintedGCPercentIsTheOneInForce(t *testing.T) {
	t.Setenv("GOGC", "75")
	cfg, err := parseConfig(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.properties()["gcPercent"]; got != "75" {
		t.Fatalf("gcPercent property = %q with GOGC=75, want 75", got)
	}
}

func TestConfig_BadGCPercentIsRefused(t *testing.T) {
	for _, v := range []string{"0", "9", "1001", "off", "-1", "3x"} {
		_, err := parseConfig([]string{"--gc-percent", v}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), "gc-percent") || !strings.Contains(err.Error(), "10 to 1000") {
			t.Errorf("--gc-percent %s: err = %v, want one naming the flag and the range", v, err)
		}
	}
}
