//go:build !linux

package launch

import "os/exec"

// dieWithParent does nothing where the kernel offers no parent-death signal.
func dieWithParent(*exec.Cmd) {}
