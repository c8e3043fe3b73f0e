package soak

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// Sample is one member's figures at one moment.
type Sample struct {
	At     time.Duration // since the run's start
	Member string
	Values map[Metric]float64
}

// sampleMember reads m's figures: memory and descriptors from /proc, the
// goroutine count from its metrics, the sizes from its data dir.
func sampleMember(ctx context.Context, m *launch.Member, at time.Duration) (Sample, error) {
	s := Sample{At: at, Member: m.ID, Values: map[Metric]float64{}}
	pid := m.Pid()
	if pid <= 0 {
		return s, fmt.Errorf("member %s is not running", m.ID)
	}
	rss, err := residentBytes(pid)
	if err != nil {
		return s, err
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, err
	}
	g, err := goroutines(ctx, m)
	if err != nil {
		return s, err
	}
	raftDir := filepath.Join(m.DataDir, "raft")
	total, err := dirBytes(m.DataDir)
	if err != nil {
		return s, err
	}
	snaps, err := snapshotCount(filepath.Join(raftDir, "snapshots"))
	if err != nil {
		return s, err
	}
	st, err := os.Stat(filepath.Join(raftDir, "raft.db"))
	if err != nil {
		return s, err
	}
	s.Values[RSS], s.Values[OpenFDs], s.Values[Goroutines] = float64(rss), float64(len(fds)), g
	s.Values[DataDir], s.Values[Snapshots], s.Values[LogBytes] = float64(total), float64(snaps), float64(st.Size())
	return s, nil
}

// residentBytes is VmRSS of /proc/pid/status.
func residentBytes(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// goroutines reads go_goroutines from the member's metrics.
func goroutines(ctx context.Context, m *launch.Member) (float64, error) {
	resp, err := m.Get(ctx, "/metrics")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 8<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			return strconv.ParseFloat(strings.TrimSpace(rest), 64)
		}
	}
	return 0, fmt.Errorf("member %s: no go_goroutines in /metrics (%v)", m.ID, sc.Err())
}

// dirBytes adds up the sizes of the files under dir. Files that vanish
// while it walks (a snapshot being reaped) are skipped.
func dirBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total, err
}

// snapshotCount counts the finished snapshots in Raft's snapshot dir.
func snapshotCount(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() && !strings.HasSuffix(e.Name(), ".tmp") {
			n++
		}
	}
	return n, err
}

// WriteCSV writes samples as "seconds,member,<metric>…" rows under a
// header, the input of docs/contributors/plot/soak.go.
func WriteCSV(w io.Writer, samples []Sample) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("seconds,member")
	for _, m := range Metrics {
		bw.WriteString("," + string(m))
	}
	bw.WriteString("\n")
	for _, s := range samples {
		fmt.Fprintf(bw, "%.1f,%s", s.At.Seconds(), s.Member)
		for _, m := range Metrics {
			fmt.Fprintf(bw, ",%.0f", s.Values[m])
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}
