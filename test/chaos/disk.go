package chaos

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// smallDisk is a size-limited tmpfs holding one member's data directory;
// fill takes every free byte with a ballast file (the disk is full: the
// member's log and snapshot writes fail with ENOSPC), free removes it.
type smallDisk struct {
	dir     string
	ballast string
}

// mountSmallDisk mounts a tmpfs of size bytes at dir. It needs root (or
// CAP_SYS_ADMIN); the error says why it is unavailable otherwise.
func mountSmallDisk(dir string, size int64) (*smallDisk, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("mount tmpfs at %s: %v: %s", dir, err, out)
	}
	return &smallDisk{dir: dir, ballast: filepath.Join(dir, "ballast")}, nil
}

// fill allocates all free space.
func (d *smallDisk) fill() error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(d.dir, &st); err != nil {
		return err
	}
	f, err := os.OpenFile(d.ballast, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	free := int64(st.Bavail) * int64(st.Bsize)
	// Allocate in steps down to the last page: a single request for all of
	// it can fail with ENOSPC when the file system's accounting moved.
	for step := free; step >= 4096; step /= 2 {
		for {
			fi, err := f.Stat()
			if err != nil {
				return err
			}
			if err := syscall.Fallocate(int(f.Fd()), 0, fi.Size(), step); err != nil {
				if errors.Is(err, syscall.ENOSPC) {
					break
				}
				return err
			}
		}
	}
	return nil
}

// free removes the ballast.
func (d *smallDisk) free() error {
	err := os.Remove(d.ballast)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// unmount removes the file system (and everything in it).
func (d *smallDisk) unmount() error {
	out, err := exec.Command("umount", "-l", d.dir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("umount %s: %v: %s", d.dir, err, out)
	}
	return nil
}
