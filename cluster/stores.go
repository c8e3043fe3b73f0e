package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"go.etcd.io/bbolt"
)

// snapshotsRetained is how many Raft snapshots stay on disk.
const snapshotsRetained = 2

// stores are the Raft log, stable store and snapshot store of a member.
type stores struct {
	logs   raft.LogStore
	stable raft.StableStore
	snaps  raft.SnapshotStore
	bolt   *raftboltdb.BoltStore // nil with injected stores
	lock   *dirLock              // nil with injected stores
}

// raftDir is where a member keeps its Raft state.
func raftDir(dataDir string) string { return filepath.Join(dataDir, "raft") }

// openStores opens the on-disk stores under dataDir, or takes the injected
// ones (in-process tests use raft's in-memory stores).
func openStores(cfg *Config) (*stores, error) {
	if cfg.LogStore != nil && cfg.StableStore != nil && cfg.SnapshotStore != nil {
		return &stores{logs: cfg.LogStore, stable: cfg.StableStore, snaps: cfg.SnapshotStore}, nil
	}
	dir := raftDir(cfg.DataDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	lock, err := lockDataDir(dir, cfg.ID)
	if err != nil {
		return nil, err
	}
	s, err := openDiskStores(cfg, dir)
	if err != nil {
		lock.release()
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// openDiskStores opens the log and snapshots under dir, which this process
// has locked, and checks that Raft can start from them.
func openDiskStores(cfg *Config, dir string) (*stores, error) {
	bolt, err := raftboltdb.New(raftboltdb.Options{
		Path:        filepath.Join(dir, "raft.db"),
		BoltOptions: &bbolt.Options{NoFreelistSync: true, Timeout: openLockTimeout},
	})
	if err != nil {
		return nil, fmt.Errorf("open raft log %s: %w", filepath.Join(dir, "raft.db"), err)
	}
	if err := checkLogReadable(bolt); err != nil {
		bolt.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrDamagedDataDir, filepath.Join(dir, "raft.db"), err)
	}
	cached, err := raft.NewLogCache(512, bolt)
	if err != nil {
		bolt.Close()
		return nil, err
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(dir, snapshotsRetained, cfg.Logger.Named("snapshots"))
	if err != nil {
		bolt.Close()
		return nil, fmt.Errorf("open snapshot store %s: %w", dir, err)
	}
	if err := checkSnapshots(dir, snaps, bolt, cfg.Logger.Named("snapshots")); err != nil {
		bolt.Close()
		return nil, err
	}
	return &stores{logs: cached, stable: bolt, snaps: snaps, bolt: bolt}, nil
}

// checkLogReadable reads the first and last entries so that a damaged log
// stops the member at start instead of at the first election.
func checkLogReadable(s *raftboltdb.BoltStore) error {
	first, err := s.FirstIndex()
	if err != nil {
		return fmt.Errorf("read first log index: %w", err)
	}
	last, err := s.LastIndex()
	if err != nil {
		return fmt.Errorf("read last log index: %w", err)
	}
	for _, idx := range []uint64{first, last} {
		if idx == 0 {
			continue
		}
		var l raft.Log
		if err := s.GetLog(idx, &l); err != nil {
			return fmt.Errorf("read log entry %d: %w", idx, err)
		}
	}
	return nil
}

func (s *stores) close() error {
	defer s.lock.release()
	if s.bolt != nil {
		return s.bolt.Close()
	}
	return nil
}

// openLockTimeout bounds waiting for another process's lock on the log.
const openLockTimeout = time.Second
