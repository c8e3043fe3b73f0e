package main

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// startOldKVServer serves GET_KVLIST_BY_NAMESPACE of table under ns, as
// an old name server holding keys RaftNS cannot store would.
func startOldKVServer(t *testing.T, ns string, table map[string]string) string {
	t.Helper()
	srv := remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			if req.Code == remoting.GetKVListByNamespace && req.ExtFields["namespace"] == ns {
				resp := remoting.NewResponse(req, remoting.Success, "")
				resp.Body = body.EncodeKVTable(table)
				return resp
			}
			return remoting.NewResponse(req, remoting.QueryNotFound, "No config item")
		}), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// The dry run names the keys RaftNS cannot store, and the import writes
// exactly the rest: both exit 1 saying how many were left out.
func TestMigrateImport_DryRunNamesWhatCannotBeStoredAndTheImportWritesTheRest(t *testing.T) {
	raft := startMember(t)
	old := startOldKVServer(t, "MY_NS", map[string]string{"": "empty-key", "Big": strings.Repeat("v", 64<<10), "Small": "s"})
	args := []string{"migrate", "import", "--from", old, "--to", raft.ClientAddr, "--namespace", "MY_NS"}
	dry := ctl(t, append(args, "--dry-run")...)
	for _, want := range []string{
		"cannot store  kv    MY_NS/       9-byte value not written: empty namespace or key", "cannot store  kv    MY_NS/Big", "set           kv    MY_NS/Small",
		"dry run, nothing written to " + raft.ClientAddr + ": 1 key set, 0 updated, 0 unchanged, 2 that RaftNS cannot store not written",
	} {
		if !strings.Contains(dry.stdout, want) {
			t.Errorf("dry run lacks %q:\n%s", want, dry.stdout)
		}
	}
	if dry.code != 1 || !strings.Contains(dry.stderr, "RaftNS cannot store 2 keys") {
		t.Fatalf("dry run exited %d: %s", dry.code, dry.stderr)
	}
	f := newFleet(t)
	if _, err := f.kv(raft, "MY_NS", "Small"); err == nil {
		t.Fatal("the dry run wrote")
	}
	imp := ctl(t, args...)
	if imp.code != 1 || !strings.Contains(imp.stdout, "imported into "+raft.ClientAddr+": 1 key set") ||
		!strings.Contains(imp.stderr, "the rest were imported") {
		t.Fatalf("import exited %d:\n%s\n%s", imp.code, imp.stdout, imp.stderr)
	}
	if v, err := f.kv(raft, "MY_NS", "Small"); err != nil || v != "s" {
		t.Fatalf("Small on RaftNS = %q, %v", v, err)
	}
}
