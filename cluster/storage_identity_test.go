package cluster

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestStorageIdentity_NewStorageIsNotAdmittedAndStateKeepsItsIdentity(t *testing.T) {
	dir := t.TempDir()
	fresh, err := loadStorageIdentity(dir, false)
	if err != nil || fresh.ID == "" || fresh.Admitted {
		t.Fatalf("new storage = %+v, %v; want a new identity, not admitted", fresh, err)
	}
	if err := writeStorageIdentity(dir, storageIdentity{ID: fresh.ID, Admitted: true}); err != nil {
		t.Fatal(err)
	}
	kept, err := loadStorageIdentity(dir, true)
	if err != nil || kept.ID != fresh.ID || !kept.Admitted {
		t.Fatalf("with Raft state = %+v, %v; want %s admitted", kept, err, fresh.ID)
	}
	// The Raft state is gone but the file stayed: the log it vouched for
	// is lost, so the storage is new.
	lost, err := loadStorageIdentity(dir, false)
	if err != nil || lost.ID == fresh.ID || lost.Admitted {
		t.Fatalf("state lost = %+v, %v; want a new identity, not admitted", lost, err)
	}
}

func TestStorageIdentity_UpgradedDataDirIsTrusted(t *testing.T) {
	id, err := loadStorageIdentity(t.TempDir(), true)
	if err != nil || id.ID == "" || !id.Admitted {
		t.Fatalf("a data dir with Raft state and no identity = %+v, %v; want a new identity, admitted", id, err)
	}
}

func TestStorageIdentity_DamagedFileIsAClearError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, storageIdentityFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadStorageIdentity(dir, true); !errors.Is(err, ErrDamagedDataDir) {
		t.Fatalf("damaged identity: %v; want ErrDamagedDataDir", err)
	}
}
