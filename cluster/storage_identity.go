package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// storageIdentityFile holds the identity of a member's storage, next to
// its Raft log: a disk that is lost, replaced or wiped loses it with the
// log.
const storageIdentityFile = "storage-identity.json"

// storageIdentity is the content of storageIdentityFile.
type storageIdentity struct {
	// ID is random, made when the Raft directory was first used.
	ID string `json:"id"`
	// Admitted is false while the member, started on a new disk, has not
	// been re-admitted by the cluster (admission.go): it then refuses to
	// vote and never campaigns.
	Admitted bool `json:"admitted"`
}

// newStorageID returns a fresh random storage identity.
func newStorageID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// loadStorageIdentity reads the identity of the Raft directory dir, or
// makes one. A directory holding Raft state keeps its identity; one
// without an identity (written by a release that predates identities) is
// trusted and gains one. A directory without Raft state is new storage:
// it gets a new identity, not admitted, whatever an earlier identity file
// said, since the log it vouched for is gone.
func loadStorageIdentity(dir string, hasState bool) (storageIdentity, error) {
	path := filepath.Join(dir, storageIdentityFile)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return storageIdentity{}, fmt.Errorf("read %s: %w", path, err)
	case hasState:
		var id storageIdentity
		if err := json.Unmarshal(b, &id); err != nil || id.ID == "" {
			return storageIdentity{}, fmt.Errorf("%w: %s is not a storage identity (%v); it is written by raftns: "+
				"restore it from a backup of this data dir, or move the data dir aside and start the member empty",
				ErrDamagedDataDir, path, err)
		}
		return id, nil
	}
	id := storageIdentity{ID: newStorageID(), Admitted: hasState}
	return id, writeStorageIdentity(dir, id)
}

// writeStorageIdentity replaces the identity file durably: a new file,
// synced, renamed over the old one, and the directory synced.
func writeStorageIdentity(dir string, id storageIdentity) error {
	b, err := json.Marshal(id)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, storageIdentityFile)
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
