package launch

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// fakeEnv selects how the test binary behaves when a test starts it as a
// member: "serve", "serve-ignore-term" or "exit".
const fakeEnv = "LAUNCH_FAKE_MEMBER"

// TestMain lets the test binary stand in for raftns, so the process
// handling is tested without building the real server.
func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeMember(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeMember parses the flags Start passes and behaves as mode says: serve
// /readyz and /v1/status until SIGTERM (exit 0), ignore SIGTERM too, or
// write to stderr and exit 3 at once.
func fakeMember(mode string, args []string) int {
	fs := flag.NewFlagSet("fake", flag.ContinueOnError)
	id := fs.String("id", "", "")
	httpAddr := fs.String("http-addr", "", "")
	for _, name := range []string{"data-dir", "listen", "cluster-addr"} {
		fs.String(name, "", "")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if mode == "exit" {
		fmt.Fprintln(os.Stderr, "fake member failed on purpose")
		return 3
	}
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ready\n")) })
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"id": *id, "state": "Leader", "leaderReady": true, "ready": true,
			"lastIndex": 7, "leaderAddr": "ignored"})
	})
	go http.Serve(ln, mux)
	fmt.Println("fake member up", fs.Args())
	for range term {
		if mode != "serve-ignore-term" {
			fmt.Println("fake member stopping")
			return 0
		}
	}
	return 0
}

// startFake starts the test binary as a member in mode; it is killed when
// the test ends.
func startFake(t *testing.T, mode string) *Member {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	m, err := NewMember(os.Args[0], "f1", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m.Args = []string{"extra"}
	m.DieWithParent = true
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Kill)
	return m
}
