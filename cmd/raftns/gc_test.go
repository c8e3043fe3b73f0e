package main

import (
	"bytes"
	"strings"
	"testing"
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
	}{
		{"default", nil, "", noEnv, defaultGCPercent, "default", true},
		{"GOGC decides when nothing is configured", nil, "", gogc50, 0, "GOGC=50", false},
		{"file", nil, "gcPercent=150", gogc50, 150, "configured", true},
		{"flag over file", []string{"--gc-percent", "200"}, "gcPercent=150", noEnv, 200, "configured", true},
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
		})
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
