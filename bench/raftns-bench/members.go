package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/raftns/raftns/internal/launch"
)

// member is one RaftNS member the bench talks to: either started by the
// tool through launch (Started is true, the tool owns its process, data
// directory and log file) or already running and named by -addrs.
type member struct {
	*launch.Member
	externalPID int // -pid, for a member the tool did not start
}

func (m *member) String() string {
	s := fmt.Sprintf("%s client=%s", m.ID, m.ClientAddr)
	if m.HTTPAddr != "" {
		s += " http=" + m.HTTPAddr
	}
	switch {
	case m.Started():
		s += fmt.Sprintf(" pid=%d (started by raftns-bench: %s %s)", m.pid(), m.Binary, strings.Join(m.Argv(), " "))
	case m.externalPID != 0:
		s += fmt.Sprintf(" pid=%d", m.externalPID)
	}
	return s
}

// pid is the member's process id, or 0 when unknown.
func (m *member) pid() int {
	if m.Started() {
		return m.Pid()
	}
	return m.externalPID
}

// metrics reads the unlabelled samples of GET /metrics.
func (m *member) metrics(ctx context.Context) (map[string]float64, error) {
	resp, err := m.Get(ctx, "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return parseMetrics(resp.Body)
}

// rssBytes returns the member's resident set size and where it was read:
// /proc/<pid>/status when the pid is known, else the process metric of
// /metrics. ok is false when neither is available.
func (m *member) rssBytes(ctx context.Context) (rss int64, source string, ok bool) {
	if pid := m.pid(); pid > 0 {
		if kb, err := strconv.ParseInt(strings.TrimSuffix(procField(fmt.Sprintf("/proc/%d/status", pid), "VmRSS"), " kB"), 10, 64); err == nil {
			return kb << 10, "VmRSS", true
		}
	}
	if mt, err := m.metrics(ctx); err == nil {
		if v, found := mt["process_resident_memory_bytes"]; found {
			return int64(v), "process_resident_memory_bytes", true
		}
	}
	return 0, "", false
}

// cpuSeconds returns the CPU time (user+system) the member has used so far:
// from /proc/<pid>/stat when the pid is known, else from /metrics.
func (m *member) cpuSeconds(ctx context.Context) (float64, bool) {
	if pid := m.pid(); pid > 0 {
		if s, err := procCPUSeconds(pid); err == nil {
			return s, true
		}
	}
	if mt, err := m.metrics(ctx); err == nil {
		v, found := mt["process_cpu_seconds_total"]
		return v, found
	}
	return 0, false
}

// userHZ is the unit of utime and stime in /proc/<pid>/stat (USER_HZ, 100
// on every Linux this runs on).
const userHZ = 100

// procCPUSeconds reads utime+stime of a process from /proc/<pid>/stat.
func procCPUSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseProcStatCPU(string(b))
}

// parseProcStatCPU extracts utime+stime (fields 14 and 15) from the text of
// /proc/<pid>/stat; the command name in parentheses may contain spaces.
func parseProcStatCPU(stat string) (float64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errBadProcStat
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 { // fields 3..15
		return 0, errBadProcStat
	}
	u, err1 := strconv.ParseUint(f[11], 10, 64)
	s, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errBadProcStat
	}
	return float64(u+s) / userHZ, nil
}

// dataDirBytes sums the apparent sizes of the files in a started member's
// data directory.
func (m *member) dataDirBytes() (int64, bool) {
	if m.DataDir == "" {
		return 0, false
	}
	var total int64
	err := filepath.WalkDir(m.DataDir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	return total, err == nil
}

// memberCPU reads each member's CPU seconds; members without a known value
// are left out.
func memberCPU(ctx context.Context, e *env) map[string]float64 {
	out := map[string]float64{}
	for _, m := range e.members {
		if v, ok := m.cpuSeconds(ctx); ok {
			out[m.ID] = v
		}
	}
	return out
}

// cpuDelta subtracts two memberCPU readings, keeping members in both.
func cpuDelta(after, before map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for id, a := range after {
		if b, ok := before[id]; ok {
			out[id] = a - b
		}
	}
	return out
}
