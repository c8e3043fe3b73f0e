package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// The log file rotates once it would pass --log-max-size and keeps
// --log-max-backups rotated files.
func TestLogFile_RotatesBySizeAndKeepsBackups(t *testing.T) {
	dir := t.TempDir()
	cfg, err := parseConfig([]string{"--data-dir", dir, "--log-file", filepath.Join(dir, "raftns.log"),
		"--log-max-size", "1MiB", "--log-max-backups", "2", "--log-max-age", "36h"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	lf := cfg.LogFile
	if lf.MaxSize != 1<<20 || lf.MaxBackups != 2 || lf.MaxAge != 36*time.Hour {
		t.Fatalf("log file settings %+v", lf)
	}
	out := lf.open(&bytes.Buffer{})
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for i := 0; i < 5*1024; i++ { // 5 MiB: four rotations
		if _, err := out.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	// lumberjack removes the backups beyond the count in the background.
	poll.For(t, 10*time.Second, "two rotated files and the current one", func() bool {
		matches, _ := filepath.Glob(filepath.Join(dir, "raftns-*.log"))
		return len(matches) == 2
	})
	st, err := os.Stat(filepath.Join(dir, "raftns.log"))
	if err != nil || st.Size() > 1<<20 {
		t.Fatalf("current log file: %v, size %d, want at most 1MiB", err, st.Size())
	}
}

func TestLogFile_BadSettingsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--log-max-size", "100KiB"}, "at least 1MiB"},
		{[]string{"--log-max-backups", "-1"}, "must not be negative"},
		{[]string{"--log-max-age", "-1h"}, "must not be negative"},
		{[]string{"--log-max-size", "lots"}, "not a byte size"},
	} {
		_, err := parseConfig(append([]string{"--data-dir", t.TempDir()}, tc.args...), &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error saying %q", tc.args, err, tc.want)
		}
	}
}

// A member started with --log-file writes its log there, and says where on
// standard error.
func TestProcessLogFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "logs", "raftns.log")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	p := newProc(t, "solo", "--log-file", file)
	p.start()
	p.waitReady()
	if !strings.Contains(p.Log(), "raftns: logging to "+file) || strings.Contains(p.Log(), "raftns member started") {
		t.Fatalf("standard error should only say where the log goes:\n%s", p.Log())
	}
	poll.For(t, 10*time.Second, "the start line in the log file", func() bool {
		b, _ := os.ReadFile(file)
		return bytes.Contains(b, []byte("raftns member started")) && bytes.Contains(b, []byte("member=solo"))
	})
}
