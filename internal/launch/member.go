package launch

import (
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Member is one raftns member process. The exported fields say how to start
// it; set them before Start and leave them alone while the process runs. A
// Member that is never started still serves the HTTP methods, for a member
// someone else runs. The methods are safe for concurrent use.
type Member struct {
	// ID is passed as --id; empty leaves the choice to raftns.
	ID string
	// Binary is the raftns executable.
	Binary string
	// DataDir, ClientAddr, ClusterAddr and HTTPAddr are passed as
	// --data-dir, --listen, --cluster-addr and --http-addr.
	DataDir     string
	ClientAddr  string
	ClusterAddr string
	HTTPAddr    string
	// Args follow the flags above on the command line.
	Args []string
	// Output receives stdout and stderr when set; otherwise each Start
	// collects them in a fresh buffer that Log returns. An *os.File is
	// handed to the child directly, so the caller may close it after Start.
	Output io.Writer
	// DieWithParent asks the kernel to kill the process when its parent
	// dies (Linux only; ignored elsewhere).
	DieWithParent bool

	mu   sync.Mutex
	cmd  *exec.Cmd
	log  *buffer
	done chan struct{} // closed when cmd has been waited for
}

// NewMember returns a member of binary with three fresh loopback addresses.
func NewMember(binary, id, dataDir string) (*Member, error) {
	m := &Member{ID: id, Binary: binary, DataDir: dataDir}
	for _, p := range []*string{&m.ClientAddr, &m.ClusterAddr, &m.HTTPAddr} {
		addr, err := FreeAddr()
		if err != nil {
			return nil, err
		}
		*p = addr
	}
	return m, nil
}

// Argv returns the arguments Start passes to the binary.
func (m *Member) Argv() []string {
	var args []string
	if m.ID != "" {
		args = append(args, "--id", m.ID)
	}
	args = append(args, "--data-dir", m.DataDir, "--listen", m.ClientAddr,
		"--cluster-addr", m.ClusterAddr, "--http-addr", m.HTTPAddr)
	return append(args, m.Args...)
}

// Start runs the binary with Argv and returns once the process exists. A
// member may be started again after its process has ended.
func (m *Member) Start() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd != nil && !closed(m.done) {
		return fmt.Errorf("%w: %s", ErrRunning, m.name())
	}
	cmd := exec.Command(m.Binary, m.Argv()...)
	var log *buffer
	out := m.Output
	if out == nil {
		log = &buffer{}
		out = log
	}
	cmd.Stdout, cmd.Stderr = out, out
	if m.DieWithParent {
		dieWithParent(cmd)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start member %s: %w", m.name(), err)
	}
	done := make(chan struct{})
	m.cmd, m.log, m.done = cmd, log, done
	go func() {
		cmd.Wait()
		close(done)
	}()
	return nil
}

// Kill sends SIGKILL and waits until the process has gone. It does nothing
// for a member that is not running.
func (m *Member) Kill() {
	cmd, done := m.proc()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// Terminate sends SIGTERM and waits up to grace for the process to exit;
// past that it returns ErrStillRunning and leaves the process running. It
// does nothing for a member that is not running.
func (m *Member) Terminate(grace time.Duration) error {
	cmd, done := m.proc()
	if cmd == nil {
		return nil
	}
	cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-timer.C:
		return fmt.Errorf("%w: %s after %v", ErrStillRunning, m.name(), grace)
	}
}

// Started reports whether Start has run the process at least once.
func (m *Member) Started() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cmd != nil
}

// Exited reports whether the process of the last Start has ended; false
// before any Start.
func (m *Member) Exited() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cmd != nil && closed(m.done)
}

// Pid is the id of the last started process, 0 before any Start.
func (m *Member) Pid() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd == nil {
		return 0
	}
	return m.cmd.Process.Pid
}

// ExitCode is the exit code of the last process, or -1 while it runs, when
// a signal ended it, or before any Start.
func (m *Member) ExitCode() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd == nil || !closed(m.done) {
		return -1
	}
	return m.cmd.ProcessState.ExitCode()
}

// Log returns what the last process has written so far to stdout and
// stderr; "" when Output was set.
func (m *Member) Log() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.log == nil {
		return ""
	}
	return m.log.String()
}

// proc returns the running process and its done channel, or nil when there
// is none.
func (m *Member) proc() (*exec.Cmd, chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd == nil || closed(m.done) {
		return nil, nil
	}
	return m.cmd, m.done
}

// name identifies the member in errors: its ID, else its client address.
func (m *Member) name() string {
	if m.ID != "" {
		return m.ID
	}
	return "at " + m.ClientAddr
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
