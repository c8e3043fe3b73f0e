package launch

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// Build compiles the raftns command at pkg into dir/raftns and returns that
// path. pkg is whatever `go build` accepts from the current directory: "."
// inside cmd/raftns, "../raftns" from a sibling, or ./cmd/raftns from the
// module root. flags go before -o, for example "-race".
func Build(dir, pkg string, flags ...string) (string, error) {
	bin := filepath.Join(dir, "raftns")
	if err := BuildCommand(bin, pkg, flags...); err != nil {
		return "", err
	}
	return bin, nil
}

// BuildCommand compiles the command at pkg into the file out, so a test can
// build another binary (raftnsctl) the same way.
func BuildCommand(out, pkg string, flags ...string) error {
	args := append(append([]string{"build"}, flags...), "-o", out, pkg)
	if b, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
	}
	return nil
}
