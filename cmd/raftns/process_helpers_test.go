package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
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
		binaryPath, binaryErr = launch.Build(binaryDir, ".", "-race")
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// proc is one raftns process started by a test; its helpers fail the test
// where launch returns an error.
type proc struct {
	*launch.Member
	t *testing.T
}

// newProc prepares a member with OS-chosen ports in a temporary data dir.
func newProc(t *testing.T, id string, extra ...string) *proc {
	t.Helper()
	m, err := launch.NewMember(raftnsBinary(t), id, filepath.Join(t.TempDir(), id))
	if err != nil {
		t.Fatal(err)
	}
	m.Args = extra
	return &proc{Member: m, t: t}
}

// start starts the process; it is killed, and its log shown on failure,
// when the test ends.
func (p *proc) start() {
	p.t.Helper()
	if err := p.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() {
		p.Kill()
		if p.t.Failed() {
			p.t.Logf("--- log of %s ---\n%s", p.ID, p.Log())
		}
	})
}

// terminate sends SIGTERM and waits for a graceful exit.
func (p *proc) terminate() {
	p.t.Helper()
	if err := p.Terminate(30 * time.Second); err != nil {
		p.t.Fatalf("%s did not stop after SIGTERM", p.ID)
	}
}

// status reads /v1/status; ok is false when the member does not answer.
func (p *proc) status() (adminapi.Status, bool) {
	st, err := p.Status(context.Background())
	return st, err == nil
}

func (p *proc) ready() bool { return p.Ready(context.Background()) }

func (p *proc) isLeader() bool {
	st, ok := p.status()
	return ok && st.IsLeader()
}

func (p *proc) waitReady() {
	p.t.Helper()
	err := p.WaitReady(context.Background(), 30*time.Second)
	if errors.Is(err, launch.ErrExited) {
		p.t.Fatalf("%s exited:\n%s", p.ID, p.Log())
	}
	if err != nil {
		p.t.Fatal(err)
	}
}

// errPortTaken: a member could not bind a port chosen for it.
var errPortTaken = errors.New("a port chosen by the OS was taken by another process before the member bound it")

// startCluster starts n members with the same peer list and waits until all
// are ready. The OS picks each port and the port is released before the
// member binds it, so a process elsewhere on the machine can take it in
// between; a cluster that lost a port that way is started again on fresh
// ports, up to three times.
func startCluster(t *testing.T, n int, extra ...string) []*proc {
	t.Helper()
	for attempt := 1; ; attempt++ {
		ps, err := tryStartCluster(t, n, extra)
		if err == nil {
			return ps
		}
		if attempt == 3 || !errors.Is(err, errPortTaken) {
			t.Fatal(err)
		}
		t.Logf("cluster start %d: %v; starting again on fresh ports", attempt, err)
	}
}

func tryStartCluster(t *testing.T, n int, extra []string) ([]*proc, error) {
	t.Helper()
	var ps []*proc
	var peers []string
	for i := 1; i <= n; i++ {
		p := newProc(t, fmt.Sprintf("n%d", i))
		ps = append(ps, p)
		peers = append(peers, p.ID+"="+p.ClusterAddr)
	}
	for _, p := range ps {
		p.Args = append([]string{"--peers", strings.Join(peers, ",")}, extra...)
		p.start()
	}
	for _, p := range ps {
		err := p.WaitReady(context.Background(), 30*time.Second)
		switch {
		case errors.Is(err, launch.ErrExited) && strings.Contains(p.Log(), "address already in use"):
			for _, q := range ps {
				q.Kill()
			}
			return nil, fmt.Errorf("%s: %w", p.ID, errPortTaken)
		case errors.Is(err, launch.ErrExited):
			return nil, fmt.Errorf("%s exited:\n%s", p.ID, p.Log())
		case err != nil:
			return nil, err
		}
	}
	waitFormedVersion(t, ps)
	return ps, nil
}

// waitFormedVersion waits until every member applied the cluster version
// a new cluster is formed at. The leader raises it from the baseline in an
// entry of its own once every member answers; until then the gates of this
// release (the audit trail among them) are closed, so a test that began
// earlier would race the raise.
func waitFormedVersion(t *testing.T, ps []*proc) {
	t.Helper()
	want := buildinfo.Current().String()
	poll.For(t, 30*time.Second, "every member at cluster version "+want, func() bool {
		for _, p := range ps {
			if st, ok := p.status(); !ok || st.ClusterVersion != want {
				return false
			}
		}
		return true
	})
}

func leaderOf(t *testing.T, ps []*proc) *proc {
	t.Helper()
	var leader *proc
	poll.For(t, 30*time.Second, "a ready leader", func() bool {
		for _, p := range ps {
			if !p.Exited() && p.isLeader() {
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
			DataVersion:         state.DataVersion{Timestamp: 1700000000000, Counter: counter},
			HasFilterServerList: true,
		},
	}
	for _, topic := range topics {
		r.Body.TopicConfigs = append(r.Body.TopicConfigs, state.TopicConfig{TopicName: topic, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6})
	}
	return r
}

func haAddr(addr string) string {
	host, _, _ := net.SplitHostPort(addr)
	return host + ":10912"
}
