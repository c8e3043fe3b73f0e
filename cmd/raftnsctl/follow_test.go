package main

import (
	"bufio"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// Ctrl-C (SIGINT) is how a follow command is stopped: the built raftnsctl
// exits with 0 after it printed a change.
func TestFollow_InterruptExitsZero(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "raftnsctl")
	if err := launch.BuildCommand(bin, "."); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"watch", "--kind", "kv"}, {"audit", "--follow", "--limit", "1"}} {
		name := strings.Join(args, " ")
		cmd := exec.Command(bin, append([]string{"--addr", member.HTTPAddr}, args...)...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill() })
		lines := make(chan string, 16)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
			_, _ = io.Copy(io.Discard, out)
		}()
		key := "FollowKey" + string(rune('A'+i))
		// Changes are written until one is printed: the first may land
		// before the command started waiting.
		printed := false
		for deadline := time.Now().Add(60 * time.Second); !printed && time.Now().Before(deadline); {
			memberCtl(t, "kv", "put", "FOLLOW_NS", key, time.Now().String()).mustSucceed(t)
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("%s ended before printing a change: %s", name, stderr.String())
				}
				printed = true
				_ = l
			case <-time.After(time.Second):
			}
		}
		if !printed {
			t.Fatalf("%s printed no change", name)
		}
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s after SIGINT: %v, want exit status 0; stderr: %s", name, err, stderr.String())
		}
	}
}
