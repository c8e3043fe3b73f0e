package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// ownWriteRounds is how many write-then-read rounds each kind runs through
// each follower.
const ownWriteRounds = 1000

// ownWrites counts what one loop of write-then-read rounds through one
// member saw.
type ownWrites struct {
	member, kind string
	rounds       atomic.Int64
	acked        atomic.Int64 // writes answered SUCCESS
	failed       atomic.Int64 // writes answered otherwise (allowed while the leader is down)
	unread       atomic.Int64 // acked writes whose read got no answer
	mu           sync.Mutex
	misses       []string // acked writes the same member's next read did not show
	unreadErrs   []string // the first errors of unanswered reads
}

func (o *ownWrites) String() string {
	return fmt.Sprintf("%s via %s: %d rounds, %d acknowledged, %d failed, %d reads unanswered %q, %d misses",
		o.kind, o.member, o.rounds.Load(), o.acked.Load(), o.failed.Load(), o.unread.Load(), o.unreadErrs, len(o.misses))
}

// miss records an acknowledged write the member's own read did not show.
func (o *ownWrites) miss(what string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.misses = append(o.misses, what)
}

// round is one write-then-read: write returns the write's error; read
// returns whether the member shows it, or an error when it did not answer.
type round struct {
	write func(ctx context.Context) error
	read  func(ctx context.Context) (bool, error)
	what  string
}

// run runs the rounds of o, each one write then at once one read on the
// same member, until n rounds are done.
func (o *ownWrites) run(n int, next func(i int) round) {
	for i := range n {
		r := next(i)
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		if err := r.write(ctx); err != nil {
			o.failed.Add(1)
		} else {
			o.acked.Add(1)
			switch shown, err := r.read(ctx); {
			case err != nil:
				o.unread.Add(1)
				o.mu.Lock()
				if len(o.unreadErrs) < 3 {
					o.unreadErrs = append(o.unreadErrs, err.Error())
				}
				o.mu.Unlock()
			case !shown:
				o.miss(r.what)
			}
		}
		cancel()
		o.rounds.Add(1)
	}
}

// registerThenRoute registers a new broker with a new topic through p, then
// asks p for the topic's route.
func registerThenRoute(c *nsclient.Client, p *proc) func(int) round {
	return func(i int) round {
		name, topic := fmt.Sprintf("rw-%s-%d", p.ID, i), fmt.Sprintf("RW-%s-%d", p.ID, i)
		addr := fmt.Sprintf("10.77.%d.%d:10911", i/250, i%250+1)
		return round{what: "route of " + topic,
			write: func(ctx context.Context) error {
				_, err := c.RegisterBroker(ctx, p.ClientAddr, brokerRegistration("RW", name, addr, 0, 1, topic))
				return err
			},
			read: func(ctx context.Context) (bool, error) {
				route, err := c.GetRoute(ctx, p.ClientAddr, topic)
				if nsclient.IsCode(err, remoting.TopicNotExist) {
					return false, nil
				}
				return err == nil && len(route.BrokerDatas) == 1 && route.BrokerDatas[0].BrokerName == name, err
			}}
	}
}

// putThenGet puts a new KV key through p, then asks p for it.
func putThenGet(c *nsclient.Client, p *proc) func(int) round {
	return func(i int) round {
		key, value := fmt.Sprintf("k-%s-%d", p.ID, i), fmt.Sprintf("v%d", i)
		return round{what: "KV " + key,
			write: func(ctx context.Context) error { return c.PutKV(ctx, p.ClientAddr, "RW", key, value) },
			read: func(ctx context.Context) (bool, error) {
				got, err := c.GetKV(ctx, p.ClientAddr, "RW", key)
				if nsclient.IsCode(err, remoting.QueryNotFound) {
					return false, nil
				}
				return err == nil && got == value, err
			}}
	}
}

// ownWriteRun is the loops of write-then-read rounds through some members.
type ownWriteRun struct {
	loops []*ownWrites
	done  chan struct{} // closed when every loop has finished
}

// startOwnWriteLoops runs register-then-route and put-then-get rounds
// through each of members, one client connection per loop.
func startOwnWriteLoops(t *testing.T, members []*proc) *ownWriteRun {
	run := &ownWriteRun{done: make(chan struct{})}
	var wg sync.WaitGroup
	for _, p := range members {
		for kind, next := range map[string]func(*nsclient.Client, *proc) func(int) round{
			"register-then-route": registerThenRoute, "put-then-get": putThenGet,
		} {
			o := &ownWrites{member: p.ID, kind: kind}
			run.loops = append(run.loops, o)
			c := newClient(t)
			wg.Add(1)
			go func() {
				defer wg.Done()
				o.run(ownWriteRounds, next(c, p))
			}()
		}
	}
	go func() {
		wg.Wait()
		close(run.done)
	}()
	return run
}

// past reports whether every loop has run n rounds.
func (r *ownWriteRun) past(n int64) bool {
	for _, o := range r.loops {
		if o.rounds.Load() < n {
			return false
		}
	}
	return true
}

// finish waits for the loops, logs what each saw and fails the test for
// every acknowledged write a loop's own read did not show.
func (r *ownWriteRun) finish(t *testing.T) {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(10 * time.Minute):
		t.Fatal("the rounds did not finish in 10 minutes")
	}
	for _, o := range r.loops {
		t.Log(o)
		if len(o.misses) > 0 {
			t.Errorf("%s via %s: %d acknowledged writes not shown by the member's next read, first: %v",
				o.kind, o.member, len(o.misses), o.misses[:min(len(o.misses), 5)])
		}
	}
}

// A member answers SUCCESS to a write only once its own reads show it:
// through each follower, every registration's topic is in the route the
// same follower gives right after, and every KV put in its next get. On a
// loaded machine a follower may lose its leader for a moment and refuse a
// read; at least 99 % of the rounds must be checked.
func TestProcess_FollowersShowTheirOwnWrites(t *testing.T) {
	ps := startCluster(t, 3, "--broker-expiry", "1h")
	leader := leaderOf(t, ps)
	run := startOwnWriteLoops(t, survivors(ps, leader))
	run.finish(t)
	for _, o := range run.loops {
		if checked := o.acked.Load() - o.unread.Load(); checked < ownWriteRounds*99/100 {
			t.Errorf("%v: %d rounds checked, want at least 99 %% of them with a healthy cluster", o, checked)
		}
	}
}

// The same while the leader is killed: writes may fail, and a member left
// without a leader refuses reads (it closes idle client connections until
// it is ready again), but a member never answers SUCCESS to a write that
// its next read, when it answers one, does not show.
func TestProcess_FollowersShowTheirOwnWritesWhileTheLeaderIsKilled(t *testing.T) {
	ps := startCluster(t, 3, "--broker-expiry", "1h")
	leader := leaderOf(t, ps)
	followers := survivors(ps, leader)
	run := startOwnWriteLoops(t, followers)
	poll.For(t, 5*time.Minute, "a third of the rounds before the kill", func() bool { return run.past(ownWriteRounds / 3) })
	leader.Kill()
	newLeader := leaderOf(t, followers)
	t.Logf("%s killed, %s leads", leader.ID, newLeader.ID)
	leader.start()
	leader.waitReady()
	run.finish(t)
	for _, o := range run.loops {
		if o.acked.Load() < ownWriteRounds/2 {
			t.Errorf("%v: fewer than half the writes acknowledged around one leader kill", o)
		}
	}
}

// A snapshot restored through a follower, which proxies it to the leader,
// shows on that follower as soon as it answers: a key written after the
// backup is gone from its next read, a key written before is there.
func TestProcess_RestoreThroughAFollowerShowsOnIt(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	follower := survivors(ps, leader)[0]
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)
	for i := range 5 {
		before, after := fmt.Sprintf("before-%d", i), fmt.Sprintf("after-%d", i)
		if err := c.PutKV(ctx, leader.ClientAddr, "RW", before, "1"); err != nil {
			t.Fatal(err)
		}
		backup := adminBody(t, leader, http.MethodGet, "/v1/snapshot", nil)
		if err := c.PutKV(ctx, leader.ClientAddr, "RW", after, "2"); err != nil {
			t.Fatal(err)
		}
		adminBody(t, follower, http.MethodPost, "/v1/snapshot", bytes.NewReader(backup))
		if _, err := c.GetKV(ctx, follower.ClientAddr, "RW", after); !nsclient.IsCode(err, remoting.QueryNotFound) {
			t.Fatalf("round %d: %s after the restore it answered: %s = %v, want QUERY_NOT_FOUND", i, follower.ID, after, err)
		}
		if v, err := c.GetKV(ctx, follower.ClientAddr, "RW", before); err != nil || v != "1" {
			t.Fatalf("round %d: %s after the restore it answered: %s = %q, %v; want 1", i, follower.ID, before, v, err)
		}
	}
}

// adminBody sends an admin API request to p and returns the body of its
// 200 answer.
func adminBody(t *testing.T, p *proc, method, path string, body io.Reader) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t, time.Minute), method, "http://"+p.HTTPAddr+path, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s on %s: %v", method, path, p.ID, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s on %s: %d %s (%v)", method, path, p.ID, resp.StatusCode, b, err)
	}
	return b
}
