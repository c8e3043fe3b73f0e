package fsm

import "github.com/raftns/raftns/fsm/state"

import "testing"

func TestFSM_WritePerm_WipeAndAdd(t *testing.T) {
	h := newHarness(t)
	c := reg(brokerA, 0, masterAddr, 1)
	c.TopicConfigs = []state.TopicConfig{topicConfig("T1", 6), topicConfig("T2", 7), topicConfig("T3", state.PermRead|state.PermPriority)}
	h.register(c)
	h.register(reg(brokerB, 0, "10.0.0.9:10911", 1, "T1", "Other"))
	steps := []struct {
		name      string
		op        CommandType
		broker    string
		wantCount int
		wantPerms [3]int32 // T1, T2, T3 of broker-a
	}{
		{"wipe clears only the write bit", WipeWritePermType, brokerA, 3, [3]int32{4, 5, 12}},
		{"second wipe counts the same", WipeWritePermType, brokerA, 3, [3]int32{4, 5, 12}},
		{"add assigns 6", AddWritePermType, brokerA, 3, [3]int32{6, 6, 6}},
		{"unknown broker counts 0", WipeWritePermType, "nobody", 0, [3]int32{6, 6, 6}},
	}
	for _, st := range steps {
		if got := h.writePerm(st.op, st.broker); got != st.wantCount {
			t.Fatalf("%s: count = %d, want %d", st.name, got, st.wantCount)
		}
		for i, topic := range []string{"T1", "T2", "T3"} {
			if got := h.perm(topic, brokerA); got != st.wantPerms[i] {
				t.Fatalf("%s: %s perm = %d, want %d", st.name, topic, got, st.wantPerms[i])
			}
		}
		if got := h.perm("T1", brokerB); got != 6 {
			t.Fatalf("%s: broker-b perm = %d, want 6 (untouched)", st.name, got)
		}
	}
}

func TestFSM_WritePerm_SurvivesUnchangedRegistration(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	h.writePerm(WipeWritePermType, brokerA)
	same := reg(brokerA, 0, masterAddr, 1, "T1")
	if h.f.WouldChange(same) {
		t.Fatal("WouldChange = true for an unchanged registration after a wipe")
	}
	h.register(same)
	if got := h.perm("T1", brokerA); got != state.PermRead {
		t.Fatalf("perm after unchanged registration = %d, want %d (wipe kept)", got, state.PermRead)
	}
	h.register(reg(brokerA, 0, masterAddr, 2, "T1"))
	if got := h.perm("T1", brokerA); got != 6 {
		t.Fatalf("perm after new DataVersion = %d, want 6 (broker's own perm)", got)
	}
}
