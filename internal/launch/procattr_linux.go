package launch

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill cmd when the thread that started it
// dies, so a crashed test run leaves no raftns behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
