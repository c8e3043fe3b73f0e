package launch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMember_Argv(t *testing.T) {
	cases := []struct {
		name string
		m    *Member
		want []string
	}{
		{"with id and args", &Member{ID: "n1", DataDir: "d", ClientAddr: "c", ClusterAddr: "k", HTTPAddr: "h", Args: []string{"--peers", "x"}},
			[]string{"--id", "n1", "--data-dir", "d", "--listen", "c", "--cluster-addr", "k", "--http-addr", "h", "--peers", "x"}},
		{"no id leaves it to raftns", &Member{DataDir: "d", ClientAddr: "c", ClusterAddr: "k", HTTPAddr: "h"},
			[]string{"--data-dir", "d", "--listen", "c", "--cluster-addr", "k", "--http-addr", "h"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.m.Argv(); !slices.Equal(got, tc.want) {
				t.Fatalf("Argv() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewMember_DistinctLoopbackAddresses(t *testing.T) {
	m, err := NewMember("raftns", "n1", "d")
	if err != nil {
		t.Fatal(err)
	}
	addrs := []string{m.ClientAddr, m.ClusterAddr, m.HTTPAddr}
	for _, a := range addrs {
		if !strings.HasPrefix(a, "127.0.0.1:") || strings.HasSuffix(a, ":0") {
			t.Fatalf("address %q, want 127.0.0.1 with a chosen port", a)
		}
	}
	if addrs[0] == addrs[1] || addrs[1] == addrs[2] || addrs[0] == addrs[2] {
		t.Fatalf("addresses %q are not distinct", addrs)
	}
}

func TestMember_NotStartedIsInert(t *testing.T) {
	m := &Member{ID: "n1"}
	m.Kill()
	if err := m.Terminate(time.Millisecond); err != nil {
		t.Fatalf("Terminate before Start = %v, want nil", err)
	}
	if m.Started() || m.Exited() || m.Pid() != 0 || m.ExitCode() != -1 || m.Log() != "" {
		t.Fatalf("before Start: started %v exited %v pid %d code %d log %q", m.Started(), m.Exited(), m.Pid(), m.ExitCode(), m.Log())
	}
	if _, err := m.Status(context.Background()); !errors.Is(err, ErrNoHTTPAddr) {
		t.Fatalf("Status without an HTTP address = %v, want ErrNoHTTPAddr", err)
	}
}

func TestMember_StartStatusTerminate(t *testing.T) {
	m := startFake(t, "serve")
	ctx := context.Background()
	if err := m.WaitReady(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Start = %v, want ErrRunning", err)
	}
	st, err := m.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.ID != "f1" || !st.Ready || !st.IsLeader() || st.LastIndex != 7 {
		t.Fatalf("status = %+v, want f1, ready leader, last index 7", st)
	}
	if !m.Started() || m.Exited() || m.Pid() <= 0 {
		t.Fatalf("running: started %v exited %v pid %d", m.Started(), m.Exited(), m.Pid())
	}
	if err := m.Terminate(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if !m.Exited() || m.ExitCode() != 0 {
		t.Fatalf("after SIGTERM: exited %v, code %d; want true, 0", m.Exited(), m.ExitCode())
	}
	if log := m.Log(); !strings.Contains(log, "fake member up [extra]") || !strings.Contains(log, "fake member stopping") {
		t.Fatalf("log = %q, want the start line with the extra args and the stop line", log)
	}
	if m.Ready(ctx) {
		t.Fatal("Ready after exit = true")
	}
}

func TestMember_KillAfterSIGTERMIsIgnored(t *testing.T) {
	m := startFake(t, "serve-ignore-term")
	if err := m.WaitReady(context.Background(), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := m.Terminate(200 * time.Millisecond); !errors.Is(err, ErrStillRunning) {
		t.Fatalf("Terminate = %v, want ErrStillRunning", err)
	}
	if m.Exited() {
		t.Fatal("exited although it ignores SIGTERM")
	}
	m.Kill()
	if !m.Exited() || m.ExitCode() != -1 {
		t.Fatalf("after SIGKILL: exited %v, code %d; want true, -1", m.Exited(), m.ExitCode())
	}
}

func TestMember_WaitReadyReportsAnEarlyExit(t *testing.T) {
	m := startFake(t, "exit")
	err := m.WaitReady(context.Background(), 30*time.Second)
	if !errors.Is(err, ErrExited) {
		t.Fatalf("WaitReady = %v, want ErrExited", err)
	}
	if m.ExitCode() != 3 || !strings.Contains(m.Log(), "failed on purpose") {
		t.Fatalf("exit code %d, log %q; want 3 and the stderr line", m.ExitCode(), m.Log())
	}
}

// A member's output goes to an open file (Output) or to a file it opens at
// each start (LogFile); either way every run lands there, and a member is
// started again after its process ended.
func TestMember_OutputFilesCollectEveryRun(t *testing.T) {
	for _, viaLogFile := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "member.log")
		m := startFake(t, "exit")
		m.Kill()
		<-waitExited(&m.Process)
		if viaLogFile {
			m.LogFile = path
		}
		for i := 0; i < 2; i++ {
			if !viaLogFile {
				f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				m.Output = f
				defer f.Close() // the child has its own descriptor
			}
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			err := m.WaitReady(context.Background(), 30*time.Second)
			if !errors.Is(err, ErrExited) || strings.Contains(err.Error(), "(log: "+path+")") != viaLogFile {
				t.Fatalf("WaitReady = %v, want ErrExited naming the log file only when LogFile is set", err)
			}
			<-waitExited(&m.Process)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "failed on purpose"); n != 2 || m.Log() != "" {
			t.Fatalf("log file (LogFile %v) has %d runs, buffer %q; want 2 and empty", viaLogFile, n, m.Log())
		}
		if cl := m.CommandLine(); len(cl) == 0 || cl[0] != os.Args[0] || !slices.Equal(cl[1:], m.Argv()) {
			t.Fatalf("command line = %q, want the binary and Argv", cl)
		}
	}
}

// waitExited is closed once p's process has ended.
func waitExited(p *Process) <-chan struct{} {
	_, done := p.proc()
	if done == nil {
		done = make(chan struct{})
		close(done)
	}
	return done
}
