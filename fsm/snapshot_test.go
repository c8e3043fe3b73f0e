package fsm

import (
	"bytes"
	"flag"
	"github.com/raftns/raftns/fsm/state"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/snapshots fixtures")

// fixtureLog is the scripted history behind testdata/snapshots/fsm-v1.snap:
// every table holds something, including an emptied KV namespace.
func fixtureLog(t testing.TB) []Entry {
	m := reg(brokerA, 0, masterAddr, 1, "TopicA", "Shared")
	m.ZoneName, m.EnableActingMaster, m.HeartbeatTimeoutMillis = "zone1", true, 10000
	m.FilterServerList = []string{"10.0.0.1:8000"}
	m.MappingInfos = []state.TopicQueueMappingInfo{{Topic: "TopicA", Scope: "__global__", TotalQueues: 2, Bname: brokerA,
		Epoch: 3, CurrIDMap: map[int32]int32{0: 0, 1: 1}}}
	s := reg(brokerA, 1, slaveAddr, 1, "TopicA", "Shared")
	s.ZoneName, s.EnableActingMaster = "zone1", true
	b := reg(brokerB, 0, "10.0.0.9:10911", 4, "Shared", "UnitTopic")
	b.ClusterName = "ClusterB"
	b.TopicConfigs[1].TopicSysFlag = state.FlagUnit
	cmds := []struct {
		typ CommandType
		cmd any
	}{
		{RegisterBrokerType, m},
		{RegisterBrokerType, s},
		{RegisterBrokerType, b},
		{WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerB}},
		{PutKVType, &state.PutKV{Namespace: state.NamespaceOrderTopicConfig, Key: "TopicA", Value: "broker-a:8", HasValue: true}},
		{PutKVType, &state.PutKV{Namespace: "Emptied", Key: "k", Value: "v", HasValue: true}},
		{DeleteKVType, &state.DeleteKV{Namespace: "Emptied", Key: "k"}},
		{SetMemberType, &state.SetMember{Member: state.Member{ID: "n1", ClientAddr: "10.1.0.1:9876", ClusterAddr: "10.1.0.1:7000", HTTPAddr: "127.0.0.1:8080"}}},
		{SetMemberType, &state.SetMember{Member: state.Member{ID: "n2", ClientAddr: "10.1.0.2:9876", ClusterAddr: "10.1.0.2:7000"}}},
	}
	var logs []Entry
	for i, c := range cmds {
		logs = append(logs, makeLog(t, uint64(i+1), c.typ, c.cmd))
	}
	return append(logs, Entry{Index: uint64(len(cmds) + 1)})
}

func fixtureFSM(t testing.TB) *FSM {
	f := New(testLogger(t))
	f.ApplyBatch(fixtureLog(t))
	return f
}

// reads captures every read of an FSM, for equality checks.
func reads(f *FSM) map[string]any {
	out := map[string]any{
		"cluster": f.ClusterInfo(), "all": f.AllTopics(), "system": f.SystemTopics(),
		"unit": f.UnitTopics(), "unitSub": f.HasUnitSubTopics(), "unitSubUnunit": f.HasUnitSubUnunitTopics(),
		"byCluster": f.TopicsByCluster(cluster), "regs": f.Registrations(), "members": f.Members(),
		"kv": f.KVTables(), "applied": f.AppliedIndex(), "lastChange": f.LastChangeIndex(),
		"group": f.BrokerMemberGroup(cluster, brokerA), "digest": f.Digest(),
	}
	for _, topic := range f.AllTopics().Topics {
		rd, ok := f.Route(topic, true)
		out["route "+topic] = []any{rd, ok}
	}
	for _, r := range f.Registrations() {
		l, ok := f.FilterServers(r.Key)
		out["filters "+r.Key.Addr] = []any{l, ok}
	}
	return out
}

func TestFSM_SnapshotRestore_RoundTrip(t *testing.T) {
	sources := map[string]*FSM{"fixture": fixtureFSM(t), "empty": New(nil)}
	for seed := int64(1); seed <= 3; seed++ {
		f := New(nil)
		f.ApplyBatch(randomLog(t, rand.New(rand.NewSource(seed)), 300))
		sources["random"+string(rune('0'+seed))] = f
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			dst := New(testLogger(t))
			dst.Apply(makeLog(t, 1, PutKVType, &state.PutKV{Namespace: "old", Key: "k", Value: "v", HasValue: true}))
			gen := dst.Generation()
			if err := restoreBytes(dst, snapshotBytes(t, src)); err != nil {
				t.Fatalf("Restore: %v", err)
			}
			if got, want := reads(dst), reads(src); !reflect.DeepEqual(got, want) {
				for k := range want {
					if !reflect.DeepEqual(got[k], want[k]) {
						t.Errorf("%s: got %+v, want %+v", k, got[k], want[k])
					}
				}
				t.FailNow()
			}
			if dst.Generation() == gen {
				t.Fatal("Restore did not bump the generation")
			}
			if n, idx := dst.Restores(); n != 1 || idx != src.AppliedIndex() {
				t.Fatalf("Restores() = %d, %d; want 1, %d", n, idx, src.AppliedIndex())
			}
		})
	}
}

func TestFSM_Snapshot_IsAPointInTime(t *testing.T) {
	f := fixtureFSM(t)
	want := reads(f)
	snap, err := f.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	// Applies after the snapshot must not leak into it (copy-on-write).
	idx := f.AppliedIndex()
	f.Apply(makeLog(t, idx+1, UnregisterBrokerType, &state.UnregisterBroker{ClusterName: cluster, BrokerAddr: masterAddr, BrokerName: brokerA}))
	f.Apply(makeLog(t, idx+2, AddWritePermType, &state.AddWritePerm{BrokerName: brokerB}))
	f.Apply(makeLog(t, idx+3, DeleteKVType, &state.DeleteKV{Namespace: state.NamespaceOrderTopicConfig, Key: "TopicA"}))
	f.Apply(makeLog(t, idx+4, RemoveMemberType, &state.RemoveMember{ID: "n1"}))
	after := f.Digest()
	sink := &memSink{}
	if err := snap.Persist(sink); err != nil {
		t.Fatal(err)
	}
	restored := New(nil)
	if err := restoreBytes(restored, sink.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(reads(restored), want) {
		t.Fatal("the snapshot saw applies made after it was taken")
	}
	if f.Digest() != after || after == want["digest"] {
		t.Fatal("persisting changed the live state, or the applies changed nothing")
	}
}

func TestFSM_Snapshot_ConcurrentWithApplyAndReads(t *testing.T) {
	f := New(nil)
	rng := rand.New(rand.NewSource(3))
	logs := randomLog(t, rng, 600)
	f.ApplyBatch(logs[:200])
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() { // readers
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
				_ = reads(f)
			}
		}
	}()
	type taken struct {
		sink   *memSink
		digest [32]byte
	}
	var all []taken
	for i := 200; i < len(logs); i += 50 {
		tk := taken{sink: &memSink{}, digest: f.Digest()}
		snap, err := f.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer snap.Release()
			if err := snap.Persist(tk.sink); err != nil {
				t.Errorf("Persist: %v", err)
			}
		}()
		f.ApplyBatch(logs[i : i+50])
		all = append(all, tk)
	}
	close(done)
	wg.Wait()
	for i, tk := range all {
		g := New(nil)
		if err := restoreBytes(g, tk.sink.Bytes()); err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
		if g.Digest() != tk.digest {
			t.Fatalf("snapshot %d does not hold the state it was taken at", i)
		}
	}
}

func TestFSM_Persist_CancelsOnError(t *testing.T) {
	snap, err := fixtureFSM(t).Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{failAfter: 1}
	if err := snap.Persist(sink); err == nil {
		t.Fatal("Persist into a failing sink succeeded")
	}
	if !sink.cancelled || sink.closed {
		t.Fatalf("sink cancelled=%v closed=%v, want cancelled only", sink.cancelled, sink.closed)
	}
}

const fixtureV1 = "fsm-v1.snap"

func fixturePath(name string) string { return filepath.Join("..", "testdata", "snapshots", name) }

// restoreFixture restores the fixture name (first rewriting it from want
// with -update) and returns the restored FSM and the fixture's bytes.
func restoreFixture(t *testing.T, name string, want *FSM) (*FSM, []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(fixturePath(name), snapshotBytes(t, want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(fixturePath(name))
	if err != nil {
		t.Fatal(err)
	}
	f := New(testLogger(t))
	if err := f.Restore(io.NopCloser(bytes.NewReader(data))); err != nil {
		t.Fatalf("Restore fixture %s: %v", name, err)
	}
	return f, data
}

// TestFSM_Restore_FixtureV1 restores the format-1 snapshot kept in
// testdata: every released format must stay restorable. Rewrite it with
// -update only while format 1 is unreleased.
func TestFSM_Restore_FixtureV1(t *testing.T) {
	f, _ := restoreFixture(t, fixtureV1, fixtureFSM(t))
	checks := []struct {
		name      string
		got, want any
	}{
		{"applied index", f.AppliedIndex(), uint64(10)},
		{"last change", f.LastChangeIndex(), uint64(9)},
		{"topics", f.AllTopics().Topics, []string{"Shared", "TopicA", "UnitTopic"}},
		{"unit topics", f.UnitTopics().Topics, []string{"UnitTopic"}},
		{"system", f.SystemTopics(), state.TopicList{Topics: []string{"ClusterB", cluster, brokerA, brokerB}, BrokerAddr: masterAddr}},
		{"group", f.BrokerMemberGroup(cluster, brokerA).BrokerAddrs, map[int64]string{0: masterAddr, 1: slaveAddr}},
		{"emptied namespace", f.KVTables()["Emptied"], map[string]string{}},
		{"members", len(f.Members()), 2},
		{"registrations", len(f.Registrations()), 3},
		{"sessions (none before request ids)", f.Sessions(), 0},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %+v, want %+v", c.name, c.got, c.want)
		}
	}
	rd, ok := f.Route("TopicA", true)
	if !ok || rd.OrderTopicConf != "broker-a:8" || rd.BrokerDatas[0].ZoneName != "zone1" ||
		!reflect.DeepEqual(rd.FilterServerTable, map[string][]string{masterAddr: {"10.0.0.1:8000"}}) ||
		rd.TopicQueueMappingByBroker[brokerA].Epoch != 3 {
		t.Errorf("route TopicA = %+v, %v", rd, ok)
	}
	if r, _ := f.Registration(state.BrokerKey{Cluster: cluster, Addr: masterAddr}); r.RegEpoch != 1 || r.HeartbeatTimeoutMillis != 10000 {
		t.Errorf("master registration = %+v", r)
	}
	if qd := f.perm(t, "Shared", brokerB); qd != state.PermRead {
		t.Errorf("broker-b Shared perm = %d, want %d (wiped)", qd, state.PermRead)
	}
	// Upgrade: a schema 1 state persists as the current schema, with no
	// controller data, and restores to the same reads.
	if len(f.ReplicaGroups()) != 0 {
		t.Errorf("schema 1 fixture has replica groups: %+v", f.ReplicaGroups())
	}
	g := New(testLogger(t))
	if err := restoreBytes(g, snapshotBytes(t, f)); err != nil {
		t.Fatalf("restore the upgraded snapshot: %v", err)
	}
	if !reflect.DeepEqual(reads(g), reads(f)) {
		t.Error("the upgraded snapshot restores to different reads")
	}
}

// perm reads a QueueData perm directly (test helper on FSM).
func (f *FSM) perm(t *testing.T, topic, brokerName string) int32 {
	t.Helper()
	f.mu.RLock()
	defer f.mu.RUnlock()
	qd, ok := f.st.Queue(topic, brokerName)
	if !ok {
		t.Fatalf("no QueueData of %s for %s", topic, brokerName)
	}
	return qd.Perm
}

// FuzzRestore feeds arbitrary bytes to Restore, seeded with the released
// fixtures: it must never panic, and a refused snapshot leaves the state
// as it was.
func FuzzRestore(f *testing.F) {
	files, _ := filepath.Glob(fixturePath("*.snap"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := New(nil)
		g.Apply(makeLog(t, 1, PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: "v", HasValue: true}))
		before := g.Digest()
		if err := restoreBytes(g, data); err != nil && g.Digest() != before {
			t.Fatalf("refused snapshot (%v) changed the state", err)
		}
	})
}
