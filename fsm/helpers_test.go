package fsm

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/raftns/raftns/fsm/state"

	"github.com/hashicorp/go-hclog"
)

// Test fixtures in the reference tests' style (RouteInfoManagerNewTest).
const (
	cluster    = "DefaultCluster"
	brokerA    = "broker-a"
	brokerB    = "broker-b"
	masterAddr = "10.0.0.1:10911"
	slaveAddr  = "10.0.0.2:10911"
	masterHA   = "10.0.0.1:10912"
	slaveHA    = "10.0.0.2:10912"
)

// testWriter sends log output to t.Log, so it shows only on failure.
type testWriter struct {
	mu sync.Mutex
	t  testing.TB
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

func testLogger(t testing.TB) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: "fsm", Level: hclog.Debug, Output: &testWriter{t: t}})
}

// makeLog builds the committed log entry of a command.
func makeLog(t testing.TB, index uint64, typ CommandType, cmd any) Entry {
	t.Helper()
	buf, err := Encode(typ, cmd)
	if err != nil {
		t.Fatalf("Encode(%s): %v", typ, err)
	}
	return Entry{Index: index, Command: true, Data: buf}
}

// harness applies commands at increasing indexes.
type harness struct {
	t     testing.TB
	f     *FSM
	index uint64
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	return &harness{t: t, f: New(testLogger(t))}
}

func (h *harness) apply(typ CommandType, cmd any) any {
	h.t.Helper()
	h.index++
	return h.f.Apply(makeLog(h.t, h.index, typ, cmd))
}

func (h *harness) register(c *state.RegisterBroker) state.RegisterResult {
	h.t.Helper()
	res, ok := h.apply(RegisterBrokerType, c).(state.RegisterResult)
	if !ok {
		h.t.Fatalf("RegisterBroker result is not a RegisterResult")
	}
	return res
}

func (h *harness) unregister(cl, addr, name string, id int64) {
	h.t.Helper()
	h.apply(UnregisterBrokerType, &state.UnregisterBroker{ClusterName: cl, BrokerAddr: addr, BrokerName: name, BrokerID: id})
}

func (h *harness) writePerm(typ CommandType, name string) int {
	h.t.Helper()
	var cmd any = &state.WipeWritePerm{BrokerName: name}
	if typ == AddWritePermType {
		cmd = &state.AddWritePerm{BrokerName: name}
	}
	res, ok := h.apply(typ, cmd).(state.WritePermResult)
	if !ok {
		h.t.Fatalf("%s result is not a WritePermResult", typ)
	}
	return res.TopicCount
}

// contentDigest is the state digest without registration epochs.
func (h *harness) contentDigest() [32]byte {
	return read(h.f, func(s *state.State) [32]byte { return s.Digest(true, false) })
}

func (h *harness) route(topic string) state.TopicRouteData {
	h.t.Helper()
	rd, ok := h.f.Route(topic, true)
	if !ok {
		h.t.Fatalf("Route(%q): no route", topic)
	}
	return rd
}

func (h *harness) noRoute(topic string) {
	h.t.Helper()
	if rd, ok := h.f.Route(topic, true); ok {
		h.t.Fatalf("Route(%q) = %+v, want no route", topic, rd)
	}
}

// perm returns the perm of brokerName's QueueData of topic.
func (h *harness) perm(topic, brokerName string) int32 {
	h.t.Helper()
	h.f.mu.RLock()
	qd, ok := h.f.st.Queue(topic, brokerName)
	h.f.mu.RUnlock()
	if !ok {
		h.t.Fatalf("no QueueData of %s for %s", topic, brokerName)
	}
	return qd.Perm
}

// reg builds a 5.x registration; dv is the DataVersion counter.
func reg(name string, id int64, addr string, dv int64, topics ...string) *state.RegisterBroker {
	c := &state.RegisterBroker{
		ClusterName: cluster, BrokerAddr: addr, BrokerName: name, BrokerID: id,
		HaServerAddr: haOf(addr), HasEnableActingMaster: true,
		DataVersion:         state.DataVersion{Timestamp: 1700000000000, Counter: dv},
		HasFilterServerList: true, StampMillis: 1700000000000 + dv,
	}
	for _, topic := range topics {
		c.TopicConfigs = append(c.TopicConfigs, topicConfig(topic, 6))
	}
	return c
}

func haOf(addr string) string {
	switch addr {
	case masterAddr:
		return masterHA
	case slaveAddr:
		return slaveHA
	}
	return addr + "-ha"
}

func topicConfig(topic string, perm int32) state.TopicConfig {
	return state.TopicConfig{TopicName: topic, ReadQueueNums: 8, WriteQueueNums: 8, Perm: perm}
}

// snapshotBytes persists a snapshot of f into memory.
func snapshotBytes(t testing.TB, f *FSM) []byte {
	t.Helper()
	snap, err := f.Snapshot()
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	defer snap.Release()
	sink := &memSink{}
	if err := snap.Persist(sink); err != nil {
		t.Fatalf("Persist: %v", err)
	}
	if !sink.closed || sink.cancelled {
		t.Fatalf("sink closed=%v cancelled=%v, want closed", sink.closed, sink.cancelled)
	}
	return sink.Bytes()
}

// memSink is a SnapshotSink in memory.
type memSink struct {
	bytes.Buffer
	closed, cancelled bool
	failAfter         int // fail writes beyond this many bytes when > 0
}

func (s *memSink) Write(p []byte) (int, error) {
	if s.failAfter > 0 && s.Len()+len(p) > s.failAfter {
		return 0, io.ErrShortWrite
	}
	return s.Buffer.Write(p)
}
func (s *memSink) ID() string    { return "mem" }
func (s *memSink) Close() error  { s.closed = true; return nil }
func (s *memSink) Cancel() error { s.cancelled = true; return nil }

func restoreBytes(f *FSM, data []byte) error {
	return f.Restore(io.NopCloser(bytes.NewReader(data)))
}
