package main

import (
	"bytes"
	"context"
	"encoding/json"
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

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/body"
	"github.com/raftns/raftns/transport/nsclient"
	"github.com/raftns/raftns/transport/remoting"
)

// The tests in this package run the real raftns binary, built once.
var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
	binaryDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}

func raftnsBinary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		binaryDir, binaryErr = os.MkdirTemp("", "raftns-bin-")
		if binaryErr != nil {
			return
		}
		binaryPath = filepath.Join(binaryDir, "raftns")
		out, err := exec.Command("go", "build", "-race", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// freeAddr returns a 127.0.0.1 address whose port the OS just chose.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// proc is one raftns process started by a test.
type proc struct {
	t       *testing.T
	id      string
	dataDir string
	client  string
	cluster string
	http    string
	args    []string
	cmd     *exec.Cmd
	log     *syncBuffer
	done    chan struct{}
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

// newProc prepares a member with OS-chosen ports in a temporary data dir.
func newProc(t *testing.T, id string, extra ...string) *proc {
	return &proc{
		t: t, id: id, dataDir: filepath.Join(t.TempDir(), id),
		client: freeAddr(t), cluster: freeAddr(t), http: freeAddr(t), args: extra,
	}
}

func (p *proc) start() {
	p.t.Helper()
	args := append([]string{"--id", p.id, "--data-dir", p.dataDir, "--listen", p.client,
		"--cluster-addr", p.cluster, "--http-addr", p.http}, p.args...)
	p.cmd = exec.Command(raftnsBinary(p.t), args...)
	p.log = &syncBuffer{}
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.done = make(chan struct{})
	go func() { p.cmd.Wait(); close(p.done) }()
	p.t.Cleanup(func() {
		p.kill()
		if p.t.Failed() {
			p.t.Logf("--- log of %s ---\n%s", p.id, p.log.String())
		}
	})
}

// kill sends SIGKILL and waits for the process to go.
func (p *proc) kill() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// terminate sends SIGTERM and waits for a graceful exit.
func (p *proc) terminate() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s did not stop after SIGTERM", p.id)
	}
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// status reads /v1/status; ok is false when the member does not answer.
func (p *proc) status() (status map[string]any, ok bool) {
	c := http.Client{Timeout: time.Second}
	resp, err := c.Get("http://" + p.http + "/v1/status")
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	if json.NewDecoder(resp.Body).Decode(&status) != nil {
		return nil, false
	}
	return status, true
}

func (p *proc) ready() bool {
	st, ok := p.status()
	return ok && st["ready"] == true
}

func (p *proc) isLeader() bool {
	st, ok := p.status()
	return ok && st["state"] == "Leader" && st["leaderReady"] == true
}

func (p *proc) waitReady() {
	p.t.Helper()
	waitFor(p.t, 30*time.Second, p.id+" ready", func() bool {
		if p.exited() {
			p.t.Fatalf("%s exited:\n%s", p.id, p.log.String())
		}
		return p.ready()
	})
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startCluster starts n members with the same peer list and waits until all
// are ready.
func startCluster(t *testing.T, n int, extra ...string) []*proc {
	t.Helper()
	var ps []*proc
	var peers []string
	for i := 1; i <= n; i++ {
		p := newProc(t, fmt.Sprintf("n%d", i))
		ps = append(ps, p)
		peers = append(peers, p.id+"="+p.cluster)
	}
	for _, p := range ps {
		p.args = append([]string{"--peers", strings.Join(peers, ",")}, extra...)
		p.start()
	}
	for _, p := range ps {
		p.waitReady()
	}
	return ps
}

func leaderOf(t *testing.T, ps []*proc) *proc {
	t.Helper()
	var leader *proc
	waitFor(t, 30*time.Second, "a ready leader", func() bool {
		for _, p := range ps {
			if !p.exited() && p.isLeader() {
				leader = p
				return true
			}
		}
		return false
	})
	return leader
}

func newClient(t *testing.T) *nsclient.Client {
	t.Helper()
	c := nsclient.New(remoting.ClientConfig{RequestTimeout: 10 * time.Second})
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// brokerRegistration is a broker of group name with the given topics.
func brokerRegistration(cluster, name, addr string, id int64, counter int64, topics ...string) *nsclient.Registration {
	r := &nsclient.Registration{
		ClusterName: cluster, BrokerName: name, BrokerAddr: addr, HaServerAddr: haAddr(addr), BrokerID: id,
		Body: body.RegisterBody{
			DataVersion:         fsm.DataVersion{Timestamp: 1700000000000, Counter: counter},
			HasFilterServerList: true,
		},
	}
	for _, topic := range topics {
		r.Body.TopicConfigs = append(r.Body.TopicConfigs, fsm.TopicConfig{TopicName: topic, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6})
	}
	return r
}

func haAddr(addr string) string {
	host, _, _ := net.SplitHostPort(addr)
	return host + ":10912"
}
