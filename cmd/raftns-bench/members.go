package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// member is one RaftNS member the bench talks to: either started by the
// tool (cmd is set, the tool owns its process and data directory) or
// already running and named by -addrs.
type member struct {
	ID          string
	Addr        string // RocketMQ client address
	HTTP        string // admin HTTP address, "" when unknown
	ClusterAddr string
	DataDir     string // "" for a member the tool did not start
	externalPID int

	binary  string
	args    []string
	logPath string
	cmd     *exec.Cmd
	done    chan struct{}
}

// memberStatus is the part of GET /v1/status the bench reads.
type memberStatus struct {
	ID           string `json:"id"`
	State        string `json:"state"`
	LeaderID     string `json:"leaderId"`
	Ready        bool   `json:"ready"`
	LeaderReady  bool   `json:"leaderReady"`
	Term         uint64 `json:"term"`
	CommitIndex  uint64 `json:"commitIndex"`
	AppliedIndex uint64 `json:"appliedIndex"`
	LastIndex    uint64 `json:"lastIndex"`
	Brokers      int    `json:"brokers"`
	Topics       int    `json:"topics"`
}

// isLeader reports a leader that has taken office.
func (s memberStatus) isLeader() bool { return s.State == "Leader" && s.LeaderReady }

func (m *member) String() string {
	s := fmt.Sprintf("%s client=%s", m.ID, m.Addr)
	if m.HTTP != "" {
		s += " http=" + m.HTTP
	}
	switch {
	case m.cmd != nil:
		s += fmt.Sprintf(" pid=%d (started by raftns-bench: %s %s)", m.pid(), m.binary, strings.Join(m.args, " "))
	case m.externalPID != 0:
		s += fmt.Sprintf(" pid=%d", m.externalPID)
	}
	return s
}

// started reports whether the tool owns this member's process.
func (m *member) started() bool { return m.cmd != nil }

// pid is the member's process id, or 0 when unknown.
func (m *member) pid() int {
	if m.cmd != nil && m.cmd.Process != nil {
		return m.cmd.Process.Pid
	}
	return m.externalPID
}

// start runs the member's binary with its arguments, appending its output
// to its log file.
func (m *member) start() error {
	logf, err := os.OpenFile(m.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("member %s: %w", m.ID, err)
	}
	cmd := exec.Command(m.binary, m.args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start member %s: %w", m.ID, err)
	}
	m.cmd, m.done = cmd, make(chan struct{})
	go func(done chan struct{}) {
		cmd.Wait()
		logf.Close()
		close(done)
	}(m.done)
	return nil
}

// alive reports whether a started member's process is running; members the
// tool did not start count as alive.
func (m *member) alive() bool {
	if m.cmd == nil {
		return true
	}
	select {
	case <-m.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL to a started member and waits until it is gone.
func (m *member) kill() {
	if m.cmd == nil || !m.alive() {
		return
	}
	m.cmd.Process.Signal(syscall.SIGKILL)
	<-m.done
}

// stop asks a started member to shut down (SIGTERM) and kills it after d.
func (m *member) stop(d time.Duration) {
	if m.cmd == nil || !m.alive() {
		return
	}
	m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.done:
	case <-time.After(d):
		m.kill()
	}
}

var httpClient = &http.Client{Timeout: 2 * time.Second}

func (m *member) get(ctx context.Context, path string) (*http.Response, error) {
	if m.HTTP == "" {
		return nil, fmt.Errorf("member %s: %w", m.ID, errNoHTTP)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+m.HTTP+path, nil)
	if err != nil {
		return nil, err
	}
	return httpClient.Do(req)
}

// status reads GET /v1/status.
func (m *member) status(ctx context.Context) (memberStatus, error) {
	var st memberStatus
	resp, err := m.get(ctx, "/v1/status")
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("member %s: /v1/status answered %s", m.ID, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("member %s: decode /v1/status: %w", m.ID, err)
	}
	return st, nil
}

// ready polls GET /readyz once.
func (m *member) ready(ctx context.Context) bool {
	resp, err := m.get(ctx, "/readyz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// waitReady polls /readyz until it answers 200, the member exits or the
// timeout passes.
func (m *member) waitReady(ctx context.Context, timeout time.Duration) error {
	return poll(ctx, timeout, 20*time.Millisecond, func() (bool, error) {
		if !m.alive() {
			return false, fmt.Errorf("member %s exited (log: %s)", m.ID, m.logPath)
		}
		return m.ready(ctx), nil
	}, "member "+m.ID+" ready")
}

// metrics reads the unlabelled samples of GET /metrics.
func (m *member) metrics(ctx context.Context) (map[string]float64, error) {
	resp, err := m.get(ctx, "/metrics")
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

// freeAddr returns a 127.0.0.1 address whose port the OS just chose. The
// port is free when this returns; a race with another process is possible
// but unlikely.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// poll calls cond every interval until it reports true, fails, the context
// ends or timeout passes.
func poll(ctx context.Context, timeout, interval time.Duration, cond func() (bool, error), what string) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w after %v waiting for %s", errTimeout, timeout, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}
