package launch

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Process is one child process: a raftns member (Member) or any other
// program a test or the load generator runs, such as `raftns-bench serve-raw`.
// Its output goes to Output when set, else to the end of LogFile when set,
// else to a fresh buffer per start that Log returns. Set the exported
// fields before Launch and leave them alone while the process runs. The
// methods are safe for concurrent use; a Process may be launched again
// once its process has ended.
type Process struct {
	// Output receives stdout and stderr when set. An *os.File is handed to
	// the child directly, so the caller may close it after Launch.
	Output io.Writer
	// LogFile, when set and Output is not, is opened for appending at each
	// Launch and receives stdout and stderr.
	LogFile string
	// DieWithParent asks the kernel to kill the process when its parent
	// dies (Linux only; ignored elsewhere).
	DieWithParent bool

	mu   sync.Mutex
	name string // of the last Launch, for errors
	cmd  *exec.Cmd
	log  *buffer
	done chan struct{} // closed when cmd has been waited for
}

// Launch runs binary with args and returns once the process exists; name
// identifies the process in errors.
func (p *Process) Launch(name, binary string, args ...string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil && !closed(p.done) {
		return fmt.Errorf("%w: %s", ErrRunning, name)
	}
	cmd := exec.Command(binary, args...)
	var log *buffer
	out := p.Output
	switch {
	case out != nil:
	case p.LogFile != "":
		f, err := os.OpenFile(p.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("start %s: %w", name, err)
		}
		defer f.Close() // the child has its own descriptor
		out = f
	default:
		log = &buffer{}
		out = log
	}
	cmd.Stdout, cmd.Stderr = out, out
	if p.DieWithParent {
		dieWithParent(cmd)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", name, err)
	}
	done := make(chan struct{})
	p.name, p.cmd, p.log, p.done = name, cmd, log, done
	go func() {
		cmd.Wait()
		close(done)
	}()
	return nil
}

// Kill sends SIGKILL and waits until the process has gone. It does nothing
// for a process that is not running.
func (p *Process) Kill() {
	cmd, done := p.proc()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// Terminate sends SIGTERM and waits up to grace for the process to exit;
// past that it returns ErrStillRunning and leaves the process running. It
// does nothing for a process that is not running.
func (p *Process) Terminate(grace time.Duration) error {
	cmd, done := p.proc()
	if cmd == nil {
		return nil
	}
	p.mu.Lock()
	name := p.name
	p.mu.Unlock()
	cmd.Process.Signal(syscall.SIGTERM)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-timer.C:
		return fmt.Errorf("%w: %s after %v", ErrStillRunning, name, grace)
	}
}

// Stop ends the process: SIGTERM, then SIGKILL for a process still running
// after grace. It returns once the process has gone.
func (p *Process) Stop(grace time.Duration) {
	if p.Terminate(grace) != nil {
		p.Kill()
	}
}

// Started reports whether Launch has run the process at least once.
func (p *Process) Started() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// Exited reports whether the process of the last Launch has ended; false
// before any Launch.
func (p *Process) Exited() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil && closed(p.done)
}

// Pid is the id of the last launched process, 0 before any Launch.
func (p *Process) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// CommandLine is the binary and the arguments of the last Launch, nil
// before any.
func (p *Process) CommandLine() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return nil
	}
	return p.cmd.Args
}

// ExitCode is the exit code of the last process, or -1 while it runs, when
// a signal ended it, or before any Launch.
func (p *Process) ExitCode() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || !closed(p.done) {
		return -1
	}
	return p.cmd.ProcessState.ExitCode()
}

// Log returns what the last process has written so far to stdout and
// stderr; "" when Output or LogFile was set.
func (p *Process) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.log == nil {
		return ""
	}
	return p.log.String()
}

// proc returns the running process and its done channel, or nil when there
// is none.
func (p *Process) proc() (*exec.Cmd, chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || closed(p.done) {
		return nil, nil
	}
	return p.cmd, p.done
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
