package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/buildinfo"
)

// SaveSnapshot writes a backup of the replicated state to w: a fresh Raft
// snapshot taken on the leader after verifying leadership, or the latest
// one when nothing changed since. The bytes are the snapshots package's
// format and can be checked with "raftnsctl snapshot inspect".
func (n *Node) SaveSnapshot(w io.Writer) (int64, error) {
	if !n.IsLeader() {
		return 0, ErrNotLeader
	}
	if err := n.raft.VerifyLeader().Error(); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNotLeader, err)
	}
	var rc io.ReadCloser
	fut := n.raft.Snapshot()
	switch err := fut.Error(); {
	case err == nil:
		_, rc, err = fut.Open()
		if err != nil {
			return 0, fmt.Errorf("open snapshot: %w", err)
		}
	case errors.Is(err, raft.ErrNothingNewToSnapshot):
		metas, lerr := n.stores.snaps.List()
		if lerr != nil || len(metas) == 0 {
			return 0, fmt.Errorf("no snapshot to save: %v", lerr)
		}
		_, rc, err = n.stores.snaps.Open(metas[0].ID)
		if err != nil {
			return 0, fmt.Errorf("open snapshot %s: %w", metas[0].ID, err)
		}
	default:
		return 0, fmt.Errorf("take snapshot: %w", err)
	}
	defer rc.Close()
	return io.Copy(w, rc)
}

// RestoreSnapshot replaces the replicated state with a backup of size
// bytes on every member. check validates the bytes first (format,
// checksum), reading them from r's start, so a damaged file changes
// nothing; r is then rewound and streamed to Raft, never held in memory.
// Afterwards the leader takes office again: Barrier, then liveness is
// rebuilt from the restored tables (docs/contributors/design.md, "Taking office"); it
// answers once the leader is back in office and ready for reads.
func (n *Node) RestoreSnapshot(r io.ReadSeeker, size int64, check func(io.Reader) error) error {
	if !n.IsLeader() {
		return ErrNotLeader
	}
	if err := check(r); err != nil {
		return fmt.Errorf("%w: %w", ErrBadBackup, err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("read backup: %w", err)
	}
	kept := n.fsm.ClusterVersion()
	meta := &raft.SnapshotMeta{Version: raft.SnapshotVersionMax, Size: size}
	if err := n.raft.Restore(meta, r, membershipTimeout); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	n.logger.Warn("replicated state restored from backup", "bytes", size)
	// The restore is committed whatever happens next; a leader that cannot
	// take office again is replaced by an election, which rebuilds the same.
	err := n.tenure.takeAgain(barrierTimeout)
	if err == nil {
		err = n.keepClusterVersion(kept)
	}
	if err == nil {
		// The caller's next read must not find the member unready.
		err = n.readiness.refresh()
	}
	if err != nil {
		n.logger.Warn("restored, but not back in office", "error", err)
	}
	return nil
}

// keepClusterVersion raises the cluster version back to kept, the one the
// cluster had before a restore, when the restored backup was taken at a
// lower one: the version is never lowered (every member already runs a
// release of at least kept), so the features the cluster used, the audit
// trail among them, stay on and the restore itself is recorded.
func (n *Node) keepClusterVersion(kept buildinfo.Version) error {
	restored := n.fsm.ClusterVersion()
	if !restored.Less(kept) {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), barrierTimeout)
	defer cancel()
	if _, err := n.ApplyLeaderOnly(ctx, fsm.SetClusterVersionType, &state.SetClusterVersion{Version: kept.String()}); err != nil {
		return fmt.Errorf("raise the cluster version back to %s: %w", kept, err)
	}
	n.logger.Warn("the backup was taken at a lower cluster version; raised back", "cluster_version", kept, "backup", restored)
	return nil
}
