package launch

import "os/exec"

// DieWithParent makes the kernel kill cmd when the thread that started it
// dies (Linux only; elsewhere it does nothing), so that an interrupted run
// leaves no helper process behind.
func DieWithParent(cmd *exec.Cmd) { dieWithParent(cmd) }
