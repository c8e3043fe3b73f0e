package cluster

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// lockFileName is the member's process lock inside the Raft directory.
const lockFileName = "LOCK"

// ErrDataDirInUse reports a data dir locked by another process.
var ErrDataDirInUse = errors.New("cluster: data dir in use")

// dirLock is an exclusive lock on a data dir held by this process.
type dirLock struct{ f *os.File }

// lockDataDir takes the exclusive lock of dir (an flock on dir/LOCK) and
// records who holds it, so that a second process on the same data dir is
// told which lock and which process stand in its way.
func lockDataDir(dir, memberID string) (*dirLock, error) {
	path := filepath.Join(dir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		who := strings.TrimSpace(string(holder))
		if who == "" {
			who = "an unknown process"
		}
		return nil, fmt.Errorf("%w: lock %s is held by %s; stop that member first, or give this one another --data-dir",
			ErrDataDirInUse, path, who)
	}
	host, _ := os.Hostname()
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprintf("pid %d on %s (member %s, since %s)\n",
		os.Getpid(), host, memberID, time.Now().UTC().Format(time.RFC3339))), 0)
	return &dirLock{f: f}, nil
}

// release drops the lock; the file stays, naming its last holder.
func (l *dirLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
