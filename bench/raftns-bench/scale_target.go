package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/raftns/raftns/fsm"
)

// scaleTarget is one system the scale scenario loads: three RaftNS members
// or three reference NameServers. Servers are numbered from 0.
type scaleTarget interface {
	// label names the target in the tables.
	label() string
	// addrs are the servers' RocketMQ addresses.
	addrs() []string
	// ids name the servers.
	ids() []string
	// pid is server i's process id, 0 when it is not running.
	pid(i int) int
	// heapBytes is server i's heap in use by its own account.
	heapBytes(ctx context.Context, i int) (int64, bool)
	// restartable picks the server the restart measures.
	restartable(ctx context.Context) (int, error)
	// stop ends server i gracefully; start runs it again on its data.
	stop(i int)
	start(i int) error
	// snapshot takes and measures a snapshot of the whole state, nil for
	// a target that keeps none.
	snapshot(ctx context.Context) (*scaleSnapshot, error)
	// restoreMs is the time server i spent restoring its state from a
	// snapshot when it started, false when it restored none.
	restoreMs(ctx context.Context, i int) (float64, bool)
	// describe lists the servers' command lines for the report.
	describe() []string
}

// raftnsTarget is the three members the tool started (env).
type raftnsTarget struct{ e *env }

func (t raftnsTarget) label() string { return fmt.Sprintf("RaftNS, %d members", len(t.e.members)) }

func (t raftnsTarget) addrs() []string { return t.e.clientAddrs() }

func (t raftnsTarget) ids() []string {
	out := make([]string, len(t.e.members))
	for i, m := range t.e.members {
		out[i] = m.ID
	}
	return out
}

func (t raftnsTarget) pid(i int) int { return t.e.members[i].pid() }

func (t raftnsTarget) heapBytes(ctx context.Context, i int) (int64, bool) {
	mt, err := t.e.members[i].metrics(ctx)
	if err != nil {
		return 0, false
	}
	v, ok := mt["go_memstats_heap_inuse_bytes"]
	return int64(v), ok
}

// restartable is a follower: restarting the leader would measure an
// election too.
func (t raftnsTarget) restartable(ctx context.Context) (int, error) {
	f, err := t.e.pick(ctx, "follower")
	if err != nil {
		return 0, err
	}
	return slices.Index(t.e.members, f), nil
}

func (t raftnsTarget) stop(i int) { t.e.members[i].Stop(10 * time.Second) }

func (t raftnsTarget) start(i int) error { return t.e.members[i].Start() }

func (t raftnsTarget) describe() []string {
	var out []string
	for _, m := range t.e.members {
		out = append(out, m.String())
	}
	return out
}

// scaleSnapshot is one snapshot of the whole state, taken on the leader
// (GET /v1/snapshot takes a fresh one) and restored into an empty state
// machine in this process.
type scaleSnapshot struct {
	Bytes int64 `json:"bytes"`
	// TakeMs and PersistMs are the leader's raft_snapshot_takeSnapshot
	// (freeze, encode, write, fsync) and raft_snapshot_persist (encode,
	// write, fsync) for this snapshot.
	TakeMs    float64 `json:"takeMs"`
	PersistMs float64 `json:"persistMs"`
	// DownloadMs is GET /v1/snapshot from request to the last byte.
	DownloadMs float64 `json:"downloadMs"`
	// LocalRestoreMs is fsm.Restore of the downloaded bytes in the load
	// generator's process.
	LocalRestoreMs float64 `json:"localRestoreMs"`
}

func (t raftnsTarget) snapshot(ctx context.Context) (*scaleSnapshot, error) {
	leader, err := t.e.leader(ctx)
	if err != nil {
		return nil, err
	}
	before, _ := leader.metrics(ctx)
	sn := &scaleSnapshot{}
	t0 := time.Now()
	resp, err := leader.Do(ctx, http.MethodGet, "/v1/snapshot")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /v1/snapshot on %s: %s", leader.ID, resp.Status)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET /v1/snapshot on %s: %w", leader.ID, err)
	}
	sn.DownloadMs, sn.Bytes = ms(time.Since(t0)), int64(len(b))
	after, err := leader.metrics(ctx)
	if err != nil {
		return nil, err
	}
	sn.TakeMs = after["raft_snapshot_takeSnapshot_sum"] - before["raft_snapshot_takeSnapshot_sum"]
	sn.PersistMs = after["raft_snapshot_persist_sum"] - before["raft_snapshot_persist_sum"]
	if sn.LocalRestoreMs, err = restoreLocally(b); err != nil {
		return nil, err
	}
	return sn, nil
}

// restoreMs reads the member's raft_fsm_restore (milliseconds, summed over
// its restores since it started).
func (t raftnsTarget) restoreMs(ctx context.Context, i int) (float64, bool) {
	mt, err := t.e.members[i].metrics(ctx)
	if err != nil || mt["raft_fsm_restore_count"] == 0 {
		return 0, false
	}
	return mt["raft_fsm_restore_sum"], true
}

// restoreLocally restores snapshot bytes into an empty state machine in
// this process and returns how long it took.
func restoreLocally(b []byte) (float64, error) {
	t0 := time.Now()
	if err := fsm.New(nil).Restore(io.NopCloser(bytes.NewReader(b))); err != nil {
		return 0, err
	}
	return ms(time.Since(t0)), nil
}
