package launch

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestProcess_LaunchRunsAnyProgram(t *testing.T) {
	t.Setenv(fakeEnv, "exit")
	p := &Process{}
	if p.CommandLine() != nil {
		t.Fatalf("command line before Launch = %q, want nil", p.CommandLine())
	}
	if err := p.Launch("fake", os.Args[0], "--id", "x"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	<-waitExited(p)
	if p.ExitCode() != 3 || !strings.Contains(p.Log(), "failed on purpose") {
		t.Fatalf("exit code %d, log %q; want 3 and the stderr line", p.ExitCode(), p.Log())
	}
}

func TestProcess_StopKillsWhatOutlivesTheGrace(t *testing.T) {
	m := startFake(t, "serve-ignore-term")
	if err := m.WaitReady(context.Background(), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m.Stop(200 * time.Millisecond)
	if !m.Exited() || m.ExitCode() != -1 {
		t.Fatalf("after Stop: exited %v, code %d; want true and killed", m.Exited(), m.ExitCode())
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Fatalf("Stop returned after %v, before the grace", waited)
	}
}
