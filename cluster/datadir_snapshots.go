package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/snapshots"
)

// ErrDamagedDataDir reports a data dir this member cannot start from.
var ErrDamagedDataDir = errors.New("cluster: damaged data dir")

// snapshotsDirName is where raft's file snapshot store keeps snapshots, and
// damagedDirName where damaged ones are moved aside.
const (
	snapshotsDirName = "snapshots"
	damagedDirName   = "damaged-snapshots"
)

// diskSnapshot is one snapshot directory and what is known of it.
type diskSnapshot struct {
	name  string
	index uint64 // from the directory name, term-index-millis
	err   error  // why it cannot be used; nil when it opens and checks
}

// checkSnapshots runs before Raft starts. Raft falls back on its own to an
// older snapshot when the newest does not open, but that is only sound when
// the log still holds every entry after the older one; otherwise Raft
// panics later looking for an entry that is gone. So: when the newest
// snapshots are damaged and the log covers the gap back to the newest good
// one, the damaged ones are moved aside with a log line saying so; when it
// does not, the start fails with a message naming the file and the
// recovery steps.
func checkSnapshots(dir string, store *raft.FileSnapshotStore, logs raft.LogStore, logger hclog.Logger) error {
	all, err := listDiskSnapshots(filepath.Join(dir, snapshotsDirName))
	if err != nil || len(all) == 0 {
		return err
	}
	var damaged []diskSnapshot
	good := -1
	for i := range all {
		all[i].err = verifySnapshot(store, all[i].name)
		if all[i].err == nil {
			good = i
			break
		}
		damaged = append(damaged, all[i])
	}
	if len(damaged) == 0 {
		return nil
	}
	first, _ := logs.FirstIndex()
	last, _ := logs.LastIndex()
	var base uint64 // the index the log must continue from
	if good >= 0 {
		base = all[good].index
	}
	newest := damaged[0]
	path := filepath.Join(dir, snapshotsDirName, newest.name, "state.bin")
	if gap := logGap(logs, first, last, base, newest.index); gap != "" {
		fallback := "there is no older usable snapshot"
		if good >= 0 {
			fallback = fmt.Sprintf("the older snapshot %s ends at index %d", all[good].name, base)
		}
		return fmt.Errorf("%w: snapshot %s is damaged (%v), %s, and the Raft log (entries %d to %d) does not cover "+
			"what the damaged snapshot held (%s), so this member cannot rebuild its state. Recovery: in a cluster of several "+
			"members, remove this member (raftnsctl peers remove), move %s aside, and add it back with an empty data dir "+
			"so the leader sends it a fresh snapshot; for a single member, start on an empty data dir and run "+
			"raftnsctl snapshot restore with a backup", ErrDamagedDataDir, path, newest.err, fallback, first, last, gap, dir)
	}
	aside := filepath.Join(dir, damagedDirName)
	if err := os.MkdirAll(aside, 0o755); err != nil {
		return fmt.Errorf("%w: create %s: %w", ErrDamagedDataDir, aside, err)
	}
	for _, d := range damaged {
		from := filepath.Join(dir, snapshotsDirName, d.name)
		to := filepath.Join(aside, d.name)
		if err := os.Rename(from, to); err != nil {
			return fmt.Errorf("%w: move damaged snapshot %s aside: %w", ErrDamagedDataDir, from, err)
		}
		logger.Error("damaged snapshot moved aside; starting from the older snapshot and the log",
			"snapshot", from, "moved_to", to, "error", d.err, "fallback_index", base, "log_first", first, "log_last", last)
	}
	return nil
}

// logGap says which entries a fallback to the snapshot at base needs and
// the log lacks, or "" when it holds every one from base+1 through the
// damaged snapshot's index and on to its end. Checking the ends alone is
// not enough: a restored backup sits one index past the log's end at the
// time and has no entry of its own, so the log can have a hole inside.
func logGap(logs raft.LogStore, first, last, base, damaged uint64) string {
	switch {
	case first == 0:
		return "the log is empty"
	case first > base+1:
		return fmt.Sprintf("entries %d to %d are missing", base+1, first-1)
	case last < damaged:
		return fmt.Sprintf("entries %d to %d are missing", last+1, damaged)
	}
	var entry raft.Log
	for i := base + 1; i <= last; i++ {
		if err := logs.GetLog(i, &entry); err != nil {
			return fmt.Sprintf("entry %d is missing: %v", i, err)
		}
	}
	return ""
}

// listDiskSnapshots lists snapshot directories newest first, including
// those whose metadata is unreadable (which raft's List skips silently).
func listDiskSnapshots(dir string) ([]diskSnapshot, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: list %s: %w", ErrDamagedDataDir, dir, err)
	}
	var out []diskSnapshot
	for _, e := range entries {
		if !e.IsDir() || strings.HasSuffix(e.Name(), ".tmp") {
			continue
		}
		parts := strings.Split(e.Name(), "-")
		if len(parts) != 3 {
			continue
		}
		idx, err := strconv.ParseUint(parts[1], 10, 64)
		if err != nil {
			continue
		}
		out = append(out, diskSnapshot{name: e.Name(), index: idx})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].index != out[j].index {
			return out[i].index > out[j].index
		}
		return out[i].name > out[j].name
	})
	return out, nil
}

// verifySnapshot opens a snapshot (raft checks its CRC) and reads it
// through the snapshots format's own checks.
func verifySnapshot(store *raft.FileSnapshotStore, name string) error {
	_, rc, err := store.Open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	_, err = snapshots.Inspect(rc)
	return err
}
