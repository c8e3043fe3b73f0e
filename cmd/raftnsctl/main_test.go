package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// member is the real raftns process the protocol and snapshot tests use,
// started once by TestMain.
var member *launch.Member

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
	member.Kill()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "--- raftns log ---\n%s", member.Log())
	}
	return code
}

// startRaftns builds ../raftns into dir, starts a single member on
// OS-chosen ports (killed by the kernel if the test binary dies first) and
// waits until /readyz answers 200.
func startRaftns(dir string) (*launch.Member, error) {
	bin, err := launch.Build(dir, "../raftns")
	if err != nil {
		return nil, err
	}
	p, err := launch.NewMember(bin, "", filepath.Join(dir, "data"))
	if err != nil {
		return nil, err
	}
	p.DieWithParent = true
	if err := p.Start(); err != nil {
		return nil, err
	}
	if err := p.WaitReady(context.Background(), 60*time.Second); err != nil {
		p.Kill()
		return nil, fmt.Errorf("%w\n%s", err, p.Log())
	}
	return p, nil
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
	return ctl(t, append([]string{"--addr", member.HTTPAddr, "--namesrv", member.ClientAddr}, args...)...)
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
