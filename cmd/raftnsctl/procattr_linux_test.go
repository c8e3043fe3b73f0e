package main

import (
	"os/exec"
	"syscall"
)

// killWithParent makes the kernel kill cmd if the test binary dies first,
// so a crashed test run leaves no raftns behind.
func killWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
