package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func pending(h *harness) map[string]state.MinBrokerIDNotice {
	out := map[string]state.MinBrokerIDNotice{}
	for _, n := range h.f.PendingMinBrokerIDNotices() {
		out[n.BrokerName] = n
	}
	return out
}

func actingReg(id int64, addr string) *state.RegisterBroker {
	c := reg(brokerA, id, addr, 1, "TestTopic")
	c.EnableActingMaster = true
	return c
}

const thirdAddr = "10.0.0.3:10911"

// noticedHarness holds an acting-master group whose master registered
// after its slave, and so one pending notice.
func noticedHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.register(actingReg(1, slaveAddr))
	h.register(actingReg(0, masterAddr))
	return h
}

func TestMinBrokerIDNotice_Registration(t *testing.T) {
	t.Run("first member and higher ids: none", func(t *testing.T) {
		h := newHarness(t)
		h.register(actingReg(0, masterAddr))
		h.register(actingReg(1, slaveAddr))
		if p := pending(h); len(p) != 0 {
			t.Fatalf("pending = %+v, want none", p)
		}
	})
	t.Run("master joins slaves: the others are told", func(t *testing.T) {
		h := newHarness(t)
		h.register(actingReg(1, slaveAddr))
		h.register(actingReg(2, thirdAddr))
		h.register(actingReg(0, masterAddr))
		n, ok := pending(h)[brokerA]
		if !ok {
			t.Fatal("no notice")
		}
		want := state.MinBrokerIDNotice{BrokerName: brokerA, MinBrokerID: 0, MinBrokerAddr: masterAddr,
			HaBrokerAddr: masterHA, Targets: []string{slaveAddr, thirdAddr}, Index: h.index}
		if !equalNotice(n, want) {
			t.Fatalf("notice = %+v, want %+v", n, want)
		}
	})
	t.Run("slave switches to master on its own address: it alone is told", func(t *testing.T) {
		h := newHarness(t)
		h.register(actingReg(1, slaveAddr))
		h.register(actingReg(0, slaveAddr))
		n := pending(h)[brokerA]
		if n.MinBrokerID != 0 || !slices.Equal(n.Targets, []string{slaveAddr}) {
			t.Fatalf("notice = %+v", n)
		}
	})
	t.Run("a stale registration is not a change", func(t *testing.T) {
		h := newHarness(t)
		s := actingReg(1, slaveAddr)
		s.DataVersion.StateVersion = 5
		h.register(s)
		h.register(actingReg(0, masterAddr)) // notice
		h.apply(AckMinBrokerIDNoticeType, &state.AckMinBrokerIDNotice{BrokerName: brokerA, Index: h.index})
		old := actingReg(1, thirdAddr) // id 1 from another address with an older stateVersion
		h.register(old)
		if p := pending(h); len(p) != 0 {
			t.Fatalf("pending = %+v, want none", p)
		}
	})
}

func TestMinBrokerIDNotice_Leave(t *testing.T) {
	setup := func(t *testing.T, acting bool) *harness {
		h := newHarness(t)
		for id, addr := range []string{masterAddr, slaveAddr, thirdAddr} {
			c := actingReg(int64(id), addr)
			c.EnableActingMaster = acting
			h.register(c)
		}
		return h
	}
	t.Run("master unregisters in an acting-master group: every remaining member is told", func(t *testing.T) {
		h := setup(t, true)
		h.unregister(cluster, masterAddr, brokerA, 0)
		want := state.MinBrokerIDNotice{BrokerName: brokerA, MinBrokerID: 1, MinBrokerAddr: slaveAddr,
			OfflineBrokerAddr: masterAddr, Targets: []string{slaveAddr, thirdAddr}, Index: h.index}
		if n := pending(h)[brokerA]; !equalNotice(n, want) {
			t.Fatalf("notice = %+v, want %+v", n, want)
		}
	})
	t.Run("without acting master: none", func(t *testing.T) {
		h := setup(t, false)
		h.unregister(cluster, masterAddr, brokerA, 0)
		if p := pending(h); len(p) != 0 {
			t.Fatalf("pending = %+v", p)
		}
	})
	t.Run("a slave leaves: none", func(t *testing.T) {
		h := setup(t, true)
		h.unregister(cluster, slaveAddr, brokerA, 1)
		if p := pending(h); len(p) != 0 {
			t.Fatalf("pending = %+v", p)
		}
	})
	t.Run("expiry of the master: told, and the group's end drops the notice", func(t *testing.T) {
		h := setup(t, true)
		r, _ := h.f.Registration(state.BrokerKey{Cluster: cluster, Addr: masterAddr})
		h.apply(ExpireBrokersType, &state.ExpireBrokers{Brokers: []state.ExpiredBroker{{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: r.RegEpoch}}})
		if n := pending(h)[brokerA]; n.MinBrokerID != 1 || n.OfflineBrokerAddr != masterAddr {
			t.Fatalf("notice = %+v", n)
		}
		h.unregister(cluster, slaveAddr, brokerA, 1)
		if n := pending(h)[brokerA]; n.MinBrokerID != 2 || !slices.Equal(n.Targets, []string{thirdAddr}) {
			t.Fatalf("notice after the slave left = %+v", n)
		}
		h.unregister(cluster, thirdAddr, brokerA, 2)
		if p := pending(h); len(p) != 0 {
			t.Fatalf("pending after the group ended = %+v", p)
		}
	})
}

func TestMinBrokerIDNotice_AckOnce(t *testing.T) {
	h := noticedHarness(t)
	idx := h.index
	for _, ack := range []struct {
		what    string
		index   uint64
		cleared bool
	}{
		{"an ack of another index", idx - 1, false},
		{"the first ack", idx, true},
		{"a second ack of the same notice", idx, false},
	} {
		r := h.apply(AckMinBrokerIDNoticeType, &state.AckMinBrokerIDNotice{BrokerName: brokerA, Index: ack.index}).(state.AckResult)
		if r.Cleared != ack.cleared {
			t.Fatalf("%s: Cleared = %v, want %v", ack.what, r.Cleared, ack.cleared)
		}
	}
	if p := pending(h); len(p) != 0 {
		t.Fatalf("pending = %+v", p)
	}
}

func TestMinBrokerIDNotice_Snapshot(t *testing.T) {
	h := noticedHarness(t)
	data := snapshotBytes(t, h.f)
	g := New(testLogger(t))
	if err := restoreBytes(g, data); err != nil {
		t.Fatal(err)
	}
	if got, want := g.PendingMinBrokerIDNotices(), h.f.PendingMinBrokerIDNotices(); len(got) != 1 || !equalNotice(got[0], want[0]) {
		t.Fatalf("restored notices %+v, want %+v", got, want)
	}
	if g.Digest() != h.f.Digest() {
		t.Fatal("digest differs after restore")
	}
}

func equalNotice(a, b state.MinBrokerIDNotice) bool { return reflect.DeepEqual(a, b) }

func TestDeleteUnlistedTopics(t *testing.T) {
	register := func(h *harness, del bool, topics ...string) {
		c := reg(brokerA, 0, masterAddr, int64(h.index+1), topics...)
		c.DeleteUnlistedTopics = del
		h.register(c)
	}
	t.Run("off: topics stay", func(t *testing.T) {
		h := newHarness(t)
		register(h, false, "T1", "T2")
		register(h, false, "T1")
		h.route("T2")
	})
	t.Run("on: the unlisted topic loses this broker, others keep theirs", func(t *testing.T) {
		h := newHarness(t)
		h.register(reg(brokerB, 0, "10.0.0.9:10911", 1, "T2", "T3"))
		register(h, true, "T1", "T2", "T3")
		register(h, true, "T1", "T2")
		if rd := h.route("T3"); len(rd.QueueDatas) != 1 || rd.QueueDatas[0].BrokerName != brokerB {
			t.Fatalf("T3 queue datas = %+v, want broker-b only", rd.QueueDatas)
		}
		register(h, true, "T1")
		h.noRoute("T2x")
		if rd := h.route("T2"); len(rd.QueueDatas) != 1 {
			t.Fatalf("T2 = %+v", rd.QueueDatas)
		}
	})
	t.Run("on: a topic of this broker only goes; an unchanged heartbeat would change", func(t *testing.T) {
		h := newHarness(t)
		register(h, true, "T1", "T2")
		c := reg(brokerA, 0, masterAddr, int64(h.index), "T1")
		if h.f.WouldChange(c) {
			t.Fatal("without the flag a registration listing fewer topics must be a heartbeat")
		}
		c.DeleteUnlistedTopics = true
		if !h.f.WouldChange(c) {
			t.Fatal("WouldChange is false although a topic would be dropped")
		}
		h.register(c)
		h.noRoute("T2")
		if h.f.WouldChange(c) {
			t.Fatal("the same registration again must be a heartbeat")
		}
	})
	t.Run("static-topic mappings or a slave: nothing dropped", func(t *testing.T) {
		h := newHarness(t)
		register(h, true, "T1", "T2")
		c := reg(brokerA, 0, masterAddr, 50, "T1")
		c.DeleteUnlistedTopics = true
		c.MappingInfos = []state.TopicQueueMappingInfo{{Topic: "T1", Bname: brokerA, TotalQueues: 1}}
		h.register(c)
		h.route("T2")
		s := reg(brokerA, 1, slaveAddr, 60, "T1")
		s.DeleteUnlistedTopics = true
		h.register(s)
		h.route("T2")
	})
	t.Run("split registrations never drop", func(t *testing.T) {
		c := reg(brokerA, 0, masterAddr, 1)
		c.TopicConfigs = randomTopics(rand.New(rand.NewPCG(5, 6)), 40000, 6)
		c.DeleteUnlistedTopics = true
		parts, err := SplitRegistration(c)
		if err != nil || len(parts) < 2 {
			t.Fatalf("parts %d, err %v", len(parts), err)
		}
		for _, p := range parts {
			_, cmd, err := Decode(p)
			if err != nil {
				t.Fatal(err)
			}
			if cmd.(*state.RegisterBroker).DeleteUnlistedTopics {
				t.Fatal("a part of a split registration carries DeleteUnlistedTopics")
			}
		}
	})
}
