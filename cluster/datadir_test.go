package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// diskMember starts a single member on dataDir with the on-disk stores.
func diskMember(t *testing.T, dataDir string, logs *logTail, tune func(*Config)) (*Node, error) {
	t.Helper()
	ln := listenLoopback(t)
	cfg := DefaultConfig()
	cfg.ID, cfg.DataDir, cfg.ClusterAddr, cfg.ClientAddr = "n1", dataDir, ln.Addr().String(), "client-n1"
	cfg.RaftConfig = fastRaftConfig()
	out := hclog.Logger(hclog.New(&hclog.LoggerOptions{Name: "n1", Level: hclog.Warn, Output: testWriter{t}}))
	if logs != nil {
		out = hclog.New(&hclog.LoggerOptions{Name: "n1", Level: hclog.Warn, Output: logs})
	}
	cfg.Logger = out
	if tune != nil {
		tune(cfg)
	}
	n, err := New(cfg, fsm.New(cfg.Logger), ln)
	if err != nil {
		ln.Close()
		return nil, err
	}
	return n, nil
}

// writeAndSnapshot puts count keys starting at from and takes a snapshot.
func writeAndSnapshot(t *testing.T, n *Node, from, count int) {
	t.Helper()
	poll.For(t, 10*time.Second, "leader ready", n.LeaderReady)
	writeKeys(t, n, from, count)
	if err := n.Raft().Snapshot().Error(); err != nil {
		t.Fatal(err)
	}
}

// writeKeys puts count keys starting at from.
func writeKeys(t *testing.T, n *Node, from, count int) {
	t.Helper()
	for i := from; i < from+count; i++ {
		if _, err := n.Apply(context.Background(), fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: fmt.Sprint(i), Value: "v", HasValue: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// damageNewestSnapshot truncates the newest snapshot's state file and
// returns its path.
func damageNewestSnapshot(t *testing.T, dataDir string) string {
	t.Helper()
	snaps, err := listDiskSnapshots(filepath.Join(raftDir(dataDir), snapshotsDirName))
	if err != nil || len(snaps) < 2 {
		t.Fatalf("snapshots %v, %v: want two", snaps, err)
	}
	path := filepath.Join(raftDir(dataDir), snapshotsDirName, snaps[0].name, "state.bin")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDataDir_DamagedNewestSnapshotFallsBackWhenTheLogCoversIt(t *testing.T) {
	dir := t.TempDir()
	n, err := diskMember(t, dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	writeAndSnapshot(t, n, 0, 5)
	writeAndSnapshot(t, n, 5, 5)
	want := n.FSM().Digest()
	n.Shutdown()
	damaged := damageNewestSnapshot(t, dir)

	logs := &logTail{}
	n, err = diskMember(t, dir, logs, nil)
	if err != nil {
		t.Fatalf("restart after a damaged newest snapshot: %v", err)
	}
	defer n.Shutdown()
	poll.For(t, 10*time.Second, "the state back from the older snapshot and the log", func() bool { return n.FSM().Digest() == want })
	if !strings.Contains(logs.String(), "damaged snapshot moved aside") || !strings.Contains(logs.String(), filepath.Dir(damaged)) {
		t.Fatalf("no clear log line naming %s:\n%s", damaged, logs.String())
	}
	if _, err := os.Stat(filepath.Join(raftDir(dir), damagedDirName, filepath.Base(filepath.Dir(damaged)))); err != nil {
		t.Fatalf("damaged snapshot not kept aside: %v", err)
	}
}

func TestDataDir_DamagedSnapshotTheLogCannotCoverStopsClearly(t *testing.T) {
	dir := t.TempDir()
	compact := func(c *Config) {
		c.TrailingLogs = 1
		c.RaftConfig.TrailingLogs = 1
	}
	n, err := diskMember(t, dir, nil, compact)
	if err != nil {
		t.Fatal(err)
	}
	writeAndSnapshot(t, n, 0, 5)
	writeAndSnapshot(t, n, 5, 20)
	n.Shutdown()
	damaged := damageNewestSnapshot(t, dir)

	_, err = diskMember(t, dir, nil, compact)
	if !errors.Is(err, ErrDamagedDataDir) {
		t.Fatalf("restart = %v, want ErrDamagedDataDir", err)
	}
	for _, want := range []string{damaged, "Recovery", "peers remove", "snapshot restore"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error lacks %q: %v", want, err)
		}
	}
}

func TestDataDir_SecondProcessIsToldWhoHoldsTheLock(t *testing.T) {
	dir := t.TempDir()
	n, err := diskMember(t, dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Shutdown()
	_, err = diskMember(t, dir, nil, nil)
	if !errors.Is(err, ErrDataDirInUse) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) ||
		!strings.Contains(err.Error(), filepath.Join(raftDir(dir), lockFileName)) {
		t.Fatalf("second open = %v, want the lock and its holder named", err)
	}
	n.Shutdown()
	n2, err := diskMember(t, dir, nil, nil)
	if err != nil {
		t.Fatalf("open after the holder shut down: %v", err)
	}
	n2.Shutdown()
}

func TestDataDir_DamagedSnapshotAfterARestoreGapStopsClearly(t *testing.T) {
	dir := t.TempDir()
	n, err := diskMember(t, dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	writeAndSnapshot(t, n, 0, 3)
	var backup bytes.Buffer
	size, err := n.SaveSnapshot(&backup)
	if err != nil {
		t.Fatal(err)
	}
	// Raft places a restored snapshot one index past the log's end and
	// writes no entry there: the log now has a gap.
	if err := n.RestoreSnapshot(bytes.NewReader(backup.Bytes()), size, func(io.Reader) error { return nil }); err != nil {
		t.Fatal(err)
	}
	writeKeys(t, n, 3, 3)
	n.Shutdown()
	damaged := damageNewestSnapshot(t, dir) // the restored backup's

	_, err = diskMember(t, dir, nil, nil)
	if !errors.Is(err, ErrDamagedDataDir) {
		t.Fatalf("restart = %v, want ErrDamagedDataDir", err)
	}
	for _, want := range []string{damaged, "missing", "Recovery", "peers remove", "snapshot restore"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error lacks %q: %v", want, err)
		}
	}
}
