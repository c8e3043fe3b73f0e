package rawserve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/protocol/remoting"
)

func TestMain_RefusesABadCommandLine(t *testing.T) {
	neverCreated := filepath.Join(t.TempDir(), "never-created")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-mode", "bogus"}, `-mode "bogus"`},
		{[]string{"-mode", "raft", "-listen", "127.0.0.1:0"}, "raft mode needs -dir"},
		{[]string{"-mode", "raft", "-dir", neverCreated, "-raft-addr", "127.0.0.1:0", "-listen", "127.0.0.1:0", "-peers", "r1"}, `peer "r1"`},
		{[]string{"-no-such-flag"}, "flag provided but not defined"},
	} {
		var stderr bytes.Buffer
		if code := Main(tc.args, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: stderr %q does not say %q", tc.args, stderr.String(), tc.want)
		}
	}
	// A refused command line opens nothing.
	if _, err := os.Stat(neverCreated); !os.IsNotExist(err) {
		t.Fatalf("a refused raft command line created its data directory (stat: %v)", err)
	}
}

func TestMain_CeilingWithoutItsBodyFails(t *testing.T) {
	var stderr bytes.Buffer
	missing := filepath.Join(t.TempDir(), "body.json")
	if code := Main([]string{"-mode", "ceiling", "-body", missing, "-listen", "127.0.0.1:0"}, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (stderr %q)", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "body.json") {
		t.Fatalf("stderr %q does not name the body file", stderr.String())
	}
}

func TestCeilingHandler_AnswersEveryRequestInline(t *testing.T) {
	resp := &remoting.Command{Code: remoting.Success, Body: []byte(`{"brokerDatas":[]}`)}
	h := ceilingHandler{resp}
	for _, code := range []int32{remoting.GetRouteInfoByTopic, remoting.RegisterBroker} {
		got, ok := h.ServeInline(nil, &remoting.Command{Code: code})
		if !ok || got != resp {
			t.Fatalf("code %d: inline answer %v, %v; want the precomputed one", code, got, ok)
		}
	}
}

// memorySink is a raft.SnapshotSink keeping what is written.
type memorySink struct {
	bytes.Buffer
	closed bool
}

func (s *memorySink) ID() string    { return "mem" }
func (s *memorySink) Close() error  { s.closed = true; return nil }
func (s *memorySink) Cancel() error { return nil }

func TestCountingFSM_SnapshotRestoresTheCount(t *testing.T) {
	var f countingFSM
	for range 3 {
		f.Apply(&raft.Log{Data: []byte("x")})
	}
	snap, err := f.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	sink := &memorySink{}
	if err := snap.Persist(sink); err != nil || !sink.closed {
		t.Fatalf("persist: err %v, closed %v", err, sink.closed)
	}
	var restored countingFSM
	if err := restored.Restore(readCloser{strings.NewReader(sink.String())}); err != nil {
		t.Fatal(err)
	}
	if got := restored.applied.Load(); got != 3 {
		t.Fatalf("restored count %d, want 3", got)
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
