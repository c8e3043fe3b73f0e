package httpapi

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// bufSink is an fsm.SnapshotSink in memory.
type bufSink struct{ bytes.Buffer }

func (*bufSink) Close() error  { return nil }
func (*bufSink) Cancel() error { return nil }

// A backup taken before the cluster version was raised (here: an empty
// state, which names no version) restores the state but not the version:
// every member keeps the cluster version it had, and holds the restore's
// own audit record, which the backup's trail does not replace.
func TestHTTP_ARestoreKeepsTheClusterVersionAndIsRecordedOnEveryMember(t *testing.T) {
	const token = "restore-test-admin-token-0123456789"
	ms := clustertest.Start(t, 3, nil)
	leader := ms.Leader()
	if _, err := leader.FinalizeUpgrade(t.Context()); err != nil {
		t.Fatal(err)
	}
	version := leader.FSM().ClusterVersion()
	ms.WaitApplied(leader.FSM().AppliedIndex())
	snap, err := fsm.New(nil).Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var backup bufSink
	if err := snap.Persist(&backup); err != nil {
		t.Fatal(err)
	}
	if !fsm.New(nil).ClusterVersion().Less(version) {
		t.Fatalf("the backup's version is not below %s", version)
	}
	// The in-memory transport's short timers can lose a leader on a
	// loaded machine; a restore refused for that is asked of the new one.
	poll.For(t, 30*time.Second, "the backup restored by the leader", func() bool {
		s := New(ms.Leader(), prometheus.NewRegistry(), nil)
		s.Configure(Options{Token: token, SpoolDir: t.TempDir()})
		req := httptest.NewRequest(http.MethodPost, "/v1/snapshot", bytes.NewReader(backup.Bytes()))
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code == http.StatusOK
	})
	poll.For(t, 20*time.Second, "the version kept and the restore recorded on every member", func() bool {
		for _, n := range ms.Running() {
			f := n.FSM()
			if f.ClusterVersion() != version {
				return false
			}
			p := f.AuditRecords(state.AuditQuery{Kind: state.AuditSnapshotRestore})
			if len(p.Records) != 1 || p.Records[0].Who != callerAdminToken || p.Records[0].Outcome != state.OutcomeApplied {
				return false
			}
		}
		return true
	})
}
