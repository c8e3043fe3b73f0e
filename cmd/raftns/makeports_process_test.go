package main

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// `make run` and `make cluster` pass the port overrides on.
func TestMakeRunAndClusterTakePortOverrides(t *testing.T) {
	for target, want := range map[string][]string{
		"run":     {"--listen :19876", "--cluster-addr 127.0.0.1:19866", "--http-addr 127.0.0.1:19856"},
		"cluster": {"cluster.sh bin/raftns ./.cluster 19876 19866 19856"},
	} {
		out, err := exec.Command("make", "-C", "../..", "-n", target, "PORT=19876", "CLUSTER_PORT=19866", "ADMIN_PORT=19856").CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		for _, w := range want {
			if !strings.Contains(string(out), w) {
				t.Errorf("make -n %s does not run %q:\n%s", target, w, out)
			}
		}
	}
}

// freeRun returns a port p with p, p+1 and p+2 free on loopback at the
// time of the call.
func freeRun(t *testing.T) int {
	t.Helper()
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		base := ln.Addr().(*net.TCPAddr).Port
		lns := []net.Listener{ln}
		for i := 1; i < 3; i++ {
			if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i)); err == nil {
				lns = append(lns, l)
			}
		}
		for _, l := range lns {
			l.Close()
		}
		if len(lns) == 3 && base+2 <= 65533 {
			return base
		}
	}
	t.Fatal("no three consecutive free ports")
	return 0
}

// cluster.sh starts three ready members on the given ports and stops them
// all on Ctrl-C.
func TestProcessClusterScriptOnGivenPorts(t *testing.T) {
	bin := raftnsBinary(t)
	client, cport, admin := freeRun(t), freeRun(t), freeRun(t)
	cmd := exec.Command("bash", "cluster.sh", bin, t.TempDir(), strconv.Itoa(client), strconv.Itoa(cport), strconv.Itoa(admin))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	hc := &http.Client{Timeout: 2 * time.Second}
	for i := range 3 {
		url := fmt.Sprintf("http://127.0.0.1:%d/readyz", admin+i)
		poll.For(t, 60*time.Second, url+" to answer 200", func() bool {
			resp, err := hc.Get(url)
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK
		})
	}
	if !strings.Contains(out.String(), fmt.Sprintf("namesrvAddr=127.0.0.1:%d;127.0.0.1:%d;127.0.0.1:%d", client, client+1, client+2)) {
		t.Errorf("cluster.sh does not print the namesrvAddr of its ports:\n%s", out.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("cluster.sh did not stop after SIGINT:\n%s", out.String())
	}
	for i := range 3 {
		if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", client+i), time.Second); err == nil {
			c.Close()
			t.Errorf("member on client port %d still serving after the script stopped", client+i)
		}
	}
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
