package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// raftnsBin is the raftns binary the smoke tests run, built by TestMain.
var raftnsBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "raftns-bench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	raftnsBin = filepath.Join(dir, "raftns")
	if out, err := exec.Command("go", "build", "-o", raftnsBin, "../raftns").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build raftns: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// startMember starts one raftns member for a test on OS-chosen ports and
// waits until /readyz answers; it is killed when the test ends.
func startMember(t *testing.T, extra ...string) *member {
	t.Helper()
	dir := t.TempDir()
	m := &member{ID: "t1", binary: raftnsBin, DataDir: filepath.Join(dir, "data"), logPath: filepath.Join(dir, "member.log")}
	for _, p := range []*string{&m.Addr, &m.ClusterAddr, &m.HTTP} {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		*p = addr
	}
	m.args = append([]string{"--id", m.ID, "--data-dir", m.DataDir, "--listen", m.Addr, "--cluster-addr", m.ClusterAddr,
		"--http-addr", m.HTTP, "--log-level", "warn"}, extra...)
	if err := m.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.kill()
		if t.Failed() {
			log, _ := os.ReadFile(m.logPath)
			t.Logf("member log:\n%s", log)
		}
	})
	if err := m.waitReady(context.Background(), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return m
}

// externalArgs points a scenario at m as a running member.
func externalArgs(m *member) []string {
	return []string{"-addrs", m.Addr, "-http", m.HTTP, "-pid", strconv.Itoa(m.pid())}
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
