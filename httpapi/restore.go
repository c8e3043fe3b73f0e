package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/snapshots"
)

// restoreSnapshot is POST /v1/snapshot: the upload is spooled to a
// temporary file in the data dir (at most MaxRestoreSize bytes, one upload
// at a time, 409 while one runs), checked, then streamed into Raft.
func (s *Server) restoreSnapshot(w http.ResponseWriter, r *http.Request) error {
	if !s.restoring.enter() {
		return &httpError{code: http.StatusConflict, msg: "a snapshot restore is already running on this member; retry when it has finished"}
	}
	defer s.restoring.leave()
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(restoreTimeout))
	if r.ContentLength > s.opts.MaxRestoreSize {
		return &httpError{code: http.StatusRequestEntityTooLarge,
			msg: fmt.Sprintf("snapshot of %d bytes exceeds the limit of %d (--max-restore-size)", r.ContentLength, s.opts.MaxRestoreSize)}
	}
	f, err := os.CreateTemp(s.opts.SpoolDir, "restore-*.snapshot.tmp")
	if err != nil {
		return fmt.Errorf("spool the upload: %w", err)
	}
	defer func() {
		f.Close()
		os.Remove(f.Name())
	}()
	n, err := io.Copy(f, http.MaxBytesReader(w, r.Body, s.opts.MaxRestoreSize))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return &httpError{code: http.StatusRequestEntityTooLarge,
			msg: fmt.Sprintf("snapshot exceeds the limit of %d bytes (--max-restore-size)", s.opts.MaxRestoreSize)}
	case err != nil:
		return badRequest("reading the upload: " + err.Error())
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	check := func(r io.Reader) error {
		_, err := snapshots.Inspect(r)
		return err
	}
	err = s.node.RestoreSnapshot(f, n, check)
	s.record(r, state.AuditRecord{Kind: state.AuditSnapshotRestore, Detail: fmt.Sprintf("bytes=%d", n)}, err)
	if err != nil {
		if errors.Is(err, cluster.ErrBadBackup) {
			return badRequest(err.Error())
		}
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"result": "restored"})
	return nil
}
