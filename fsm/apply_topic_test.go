package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"slices"
	"testing"
)

// twoClusters registers broker-a in DefaultCluster and broker-b in Other,
// both with topic Shared, and broker-a alone with topic OnlyA.
func twoClusters(t *testing.T) *harness {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "Shared", "OnlyA"))
	b := reg(brokerB, 0, "10.0.0.9:10911", 1, "Shared")
	b.ClusterName = "Other"
	h.register(b)
	return h
}

func TestFSM_DeleteTopic_WholeAndPerCluster(t *testing.T) {
	cases := []struct {
		name       string
		cmd        state.DeleteTopic
		wantShared []string // broker names left, nil: topic gone
		wantChange bool
	}{
		{"whole topic", state.DeleteTopic{Topic: "Shared"}, nil, true},
		{"one cluster", state.DeleteTopic{Topic: "Shared", ClusterName: "Other"}, []string{brokerA}, true},
		{"both clusters in turn", state.DeleteTopic{Topic: "Shared", ClusterName: cluster}, []string{brokerB}, true},
		{"unknown cluster", state.DeleteTopic{Topic: "Shared", ClusterName: "Nope"}, []string{brokerA, brokerB}, false},
		{"missing topic", state.DeleteTopic{Topic: "Missing"}, []string{brokerA, brokerB}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := twoClusters(t)
			before := h.f.Digest()
			h.apply(DeleteTopicType, &tc.cmd)
			if changed := h.f.Digest() != before; changed != tc.wantChange {
				t.Fatalf("changed = %v, want %v", changed, tc.wantChange)
			}
			rd, ok := h.f.Route("Shared", false)
			if tc.wantShared == nil {
				if ok {
					t.Fatalf("Shared still routed: %+v", rd)
				}
				return
			}
			var names []string
			for _, qd := range rd.QueueDatas {
				names = append(names, qd.BrokerName)
			}
			if !slices.Equal(names, tc.wantShared) {
				t.Fatalf("Shared queue data of %v, want %v", names, tc.wantShared)
			}
		})
	}
	t.Run("last cluster removes the topic", func(t *testing.T) {
		h := twoClusters(t)
		h.apply(DeleteTopicType, &state.DeleteTopic{Topic: "Shared", ClusterName: cluster})
		h.apply(DeleteTopicType, &state.DeleteTopic{Topic: "Shared", ClusterName: "Other"})
		if slices.Contains(h.f.AllTopics().Topics, "Shared") {
			t.Fatal("Shared still listed after deleting it from both clusters")
		}
	})
}

func TestFSM_RegisterTopic_PartialUpdate(t *testing.T) {
	qd := func(name string, perm int32) state.QueueData {
		return state.QueueData{BrokerName: name, ReadQueueNums: 2, WriteQueueNums: 2, Perm: perm, TopicSysFlag: state.FlagUnit}
	}
	cases := []struct {
		name  string
		topic string
		qds   []state.QueueData
		want  []state.QueueData // nil: no topic
	}{
		{"new topic", "New", []state.QueueData{qd(brokerA, 6)}, []state.QueueData{qd(brokerA, 6)}},
		{"new topic with an unknown broker is rejected", "New", []state.QueueData{qd(brokerA, 6), qd("nobody", 6)}, nil},
		{"empty list is ignored", "New", nil, nil},
		{"existing topic replaces as sent", "OnlyA", []state.QueueData{qd(brokerA, 4)}, []state.QueueData{qd(brokerA, 4)}},
		{"existing topic keeps puts before an unknown broker", "OnlyA",
			[]state.QueueData{qd(brokerB, 6), qd("nobody", 6), qd(brokerA, 2)},
			[]state.QueueData{{BrokerName: brokerA, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}, qd(brokerB, 6)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := twoClusters(t)
			h.apply(RegisterTopicType, &state.RegisterTopic{Topic: tc.topic, QueueDatas: tc.qds})
			rd, ok := h.f.Route(tc.topic, false)
			if tc.want == nil {
				if ok {
					t.Fatalf("route = %+v, want none", rd)
				}
				return
			}
			if !reflect.DeepEqual(rd.QueueDatas, tc.want) {
				t.Fatalf("queueDatas = %+v, want %+v", rd.QueueDatas, tc.want)
			}
		})
	}
}
