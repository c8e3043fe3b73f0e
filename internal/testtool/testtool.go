// Package testtool finds the external programs some tests drive (headless
// Chromium, promtool) and runs headless Chromium. A missing program skips
// the test on a developer's machine but fails it under CI (CI=true), where
// .ci/run installs every one of them.
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Require returns the path of the first of names found on PATH. When none
// is found the test fails under CI and is skipped elsewhere, naming the
// Debian package that provides it.
func Require(t testing.TB, debianPackage string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	msg := "none of " + joinNames(names) + " is on PATH; install Debian's " + debianPackage + " package (.ci/run does)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
