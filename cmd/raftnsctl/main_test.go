package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// member is the real raftns process the protocol and snapshot tests use,
// started once by TestMain.
var member *raftnsProcess

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "raftnsctl-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	member, err = startRaftns(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "start raftns:", err)
		return 1
	}
	code := m.Run()
	member.stop()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "--- raftns log ---\n%s", member.log.String())
	}
	return code
}

// raftnsProcess is one raftns member running from a freshly built binary.
type raftnsProcess struct {
	client, http string
	cmd          *exec.Cmd
	log          *syncBuffer
	done         chan struct{}
}

// startRaftns builds ../raftns into dir, starts a single member on
// OS-chosen ports and waits until /readyz answers 200.
func startRaftns(dir string) (*raftnsProcess, error) {
	bin := filepath.Join(dir, "raftns")
	if out, err := exec.Command("go", "build", "-o", bin, "../raftns").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	var addrs [3]string
	for i := range addrs {
		a, err := freePort()
		if err != nil {
			return nil, err
		}
		addrs[i] = a
	}
	p := &raftnsProcess{client: addrs[0], http: addrs[2], log: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(bin, "--data-dir", filepath.Join(dir, "data"), "--listen", addrs[0],
		"--cluster-addr", addrs[1], "--http-addr", addrs[2])
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	killWithParent(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	if err := p.waitReady(60 * time.Second); err != nil {
		p.stop()
		return nil, fmt.Errorf("%w\n%s", err, p.log.String())
	}
	return p, nil
}

// freePort returns a loopback address whose port the OS just chose.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitReady polls GET /readyz until it answers 200 or the deadline passes.
func (p *raftnsProcess) waitReady(timeout time.Duration) error {
	c := http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := c.Get("http://" + p.http + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("raftns not ready after %v (last error %v)", timeout, err)
		}
		select {
		case <-p.done:
			return fmt.Errorf("raftns exited before it was ready")
		case <-tick.C:
		}
	}
}

// stop kills the process and waits for it to go.
func (p *raftnsProcess) stop() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// result is what one raftnsctl invocation printed and returned.
type result struct {
	stdout, stderr string
	code           int
}

// ctl runs raftnsctl in-process with an empty environment.
func ctl(t *testing.T, args ...string) result {
	t.Helper()
	return ctlEnv(t, nil, args...)
}

// ctlEnv runs raftnsctl in-process with env as its environment.
func ctlEnv(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, func(k string) string { return env[k] })
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// memberCtl runs raftnsctl against the real member.
func memberCtl(t *testing.T, args ...string) result {
	t.Helper()
	return ctl(t, append([]string{"--addr", member.http, "--namesrv", member.client}, args...)...)
}

// mustSucceed fails the test unless r exited with 0.
func (r result) mustSucceed(t *testing.T) result {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit code = %d, want 0; stderr:\n%s", r.code, r.stderr)
	}
	return r
}

// mustFail fails the test unless r exited with code and stderr holds want.
func (r result) mustFail(t *testing.T, code int, want string) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code = %d, want %d; stdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, want) {
		t.Fatalf("stderr = %q, want it to contain %q", r.stderr, want)
	}
	return r
}
