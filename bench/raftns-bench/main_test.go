package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/raftns/raftns/bench/rawserve"
	"github.com/raftns/raftns/internal/launch"
)

// raftnsBin is the raftns binary the smoke tests run (members and the raw
// servers compare starts); TestMain builds it.
var raftnsBin string

func TestMain(m *testing.M) {
	// compare starts its ceiling servers from its own binary, this test
	// binary here: serve them as raftns-bench would.
	if len(os.Args) > 1 && os.Args[1] == rawserve.Command {
		os.Exit(rawserve.Main(os.Args[2:], os.Stderr))
	}
	dir, err := os.MkdirTemp("", "raftns-bench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	raftnsBin, err = launch.Build(dir, "../../cmd/raftns")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// startMember starts one raftns member for a test on OS-chosen ports and
// waits until it is ready and its cluster settled (launch.Member.Settled);
// it is killed when the test ends.
func startMember(t *testing.T, extra ...string) *member {
	t.Helper()
	dir := t.TempDir()
	lm, err := launch.NewMember(raftnsBin, "t1", filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	lm.Args = append([]string{"--log-level", "warn"}, extra...)
	lm.LogFile = filepath.Join(dir, "member.log")
	m := &member{Member: lm}
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.Kill()
		if t.Failed() {
			log, _ := os.ReadFile(m.LogFile)
			t.Logf("member log:\n%s", log)
		}
	})
	if err := m.WaitSettled(context.Background(), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return m
}

// externalArgs points a scenario at m as a running member.
func externalArgs(m *member) []string {
	return []string{"-addrs", m.ClientAddr, "-http", m.HTTPAddr, "-pid", strconv.Itoa(m.pid())}
}

// runScenario parses args, runs the scenario and checks that both output
// forms render.
func runScenario(t *testing.T, args ...string) *Report {
	t.Helper()
	inv, err := parseArgs(args, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var progress bytes.Buffer
	rep, err := execute(ctx, inv, &progress)
	if err != nil {
		t.Fatalf("%s: %v\nprogress:\n%s", args[0], err, progress.String())
	}
	var text, js bytes.Buffer
	if err := rep.writeText(&text); err != nil {
		t.Fatal(err)
	}
	if len(rep.Tables) == 0 || !bytes.Contains(text.Bytes(), []byte(rep.Tables[0].Title)) {
		t.Fatalf("text output lacks the table:\n%s", text.String())
	}
	if err := rep.writeJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back["scenario"] != args[0] || back["results"] == nil {
		t.Fatalf("JSON output does not decode to the report (%v):\n%s", err, js.String())
	}
	t.Logf("%s", text.String())
	return rep
}
