//go:build !linux

package main

import "os/exec"

// killWithParent does nothing where the kernel offers no parent-death signal.
func killWithParent(*exec.Cmd) {}
