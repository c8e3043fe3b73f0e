package main

import (
	"strings"
	"testing"
	"time"
)

func TestScaleShape_EveryTopicOnPlacementDistinctGroups(t *testing.T) {
	s := scaleShape{Brokers: 20, Groups: 10, Topics: 103, Placement: 3, Queues: 1}
	if err := s.check(); err != nil {
		t.Fatal(err)
	}
	on := map[int]map[int]bool{}
	for g := range s.Groups {
		topics := s.groupTopics(g)
		if len(topics) < s.Topics*s.Placement/s.Groups {
			t.Fatalf("group %d carries %d topics, want at least %d", g, len(topics), s.Topics*s.Placement/s.Groups)
		}
		for _, tp := range topics {
			if on[tp] == nil {
				on[tp] = map[int]bool{}
			}
			if on[tp][g] {
				t.Fatalf("topic %d listed twice on group %d", tp, g)
			}
			on[tp][g] = true
		}
	}
	if len(on) != s.Topics {
		t.Fatalf("%d topics placed, want %d", len(on), s.Topics)
	}
	for tp, groups := range on {
		if len(groups) != s.Placement {
			t.Fatalf("topic %d is on %d groups, want %d", tp, len(groups), s.Placement)
		}
	}
}

func TestScaleShape_RefusesShapesItCannotBuild(t *testing.T) {
	for _, s := range []scaleShape{
		{Brokers: 3, Groups: 2, Topics: 10, Placement: 1, Queues: 1}, // not a multiple
		{Brokers: 4, Groups: 2, Topics: 10, Placement: 3, Queues: 1}, // placement > groups
		{Brokers: 8, Groups: 8, Topics: 1, Placement: 1, Queues: 1},  // groups without topics
	} {
		if err := s.check(); err == nil {
			t.Fatalf("%+v accepted", s)
		}
	}
}

func TestScaleBrokers_ReplicasShareTheBodyNotTheAddress(t *testing.T) {
	sb := newScaleBrokers(newNaming(), scaleShape{Brokers: 4, Groups: 2, Topics: 10, Placement: 2, Queues: 4})
	c := (&env{}).newClient()
	defer c.Close()
	reqs, err := sb.requests(c, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	master, slave := reqs[0], reqs[1]
	if &master.Body[0] != &slave.Body[0] || master.ExtFields["brokerName"] != slave.ExtFields["brokerName"] {
		t.Fatal("the replicas of a group do not share one body and name")
	}
	if master.ExtFields["brokerAddr"] == slave.ExtFields["brokerAddr"] || slave.ExtFields["brokerId"] != "1" {
		t.Fatalf("slave fields %v: want its own address and id 1", slave.ExtFields)
	}
}

func TestParseJstatUsed_SumsTheUsedSpaces(t *testing.T) {
	out := " S0C    S1C    S0U    S1U      EC       EU        OC         OU       MC     MU\n" +
		" 0.0   1024.0  0.0   1024.0  10240.0   2048.0   20480.0    4096.0   5000.0 4000.0\n"
	got, ok := parseJstatUsed([]byte(out))
	if !ok || got != (1024+2048+4096)*1024 {
		t.Fatalf("used = %d, %v; want %d", got, ok, (1024+2048+4096)*1024)
	}
	if _, ok := parseJstatUsed([]byte("garbage")); ok {
		t.Fatal("garbage parsed")
	}
}

// The whole scenario at a tiny shape against three real members: the fill,
// the steady window, the answers, the snapshot, the storm and the restart
// all produce figures, and the storm brings every broker back.
func TestScale_SmokeTinyShapeOnThreeMembers(t *testing.T) {
	args := []string{"scale", "-raftns", raftnsBin, "-workdir", t.TempDir(), "-targets", "raftns",
		"-brokers", "8", "-groups", "4", "-topics", "40", "-placement", "2", "-heartbeat", "2s",
		"-settle", "0s", "-steady", "2s", "-read-window", "1s", "-readers", "2"}
	res := runScenario(t, args...).Results.(scaleResults)
	if len(res.Targets) != 1 || res.QueueDatas != 80 {
		t.Fatalf("results = %+v, want one target and 80 queue datas", res)
	}
	r := res.Targets[0]
	if r.FillFailed != 0 || r.FillSeconds <= 0 || len(r.Servers) != 3 {
		t.Fatalf("fill: %d failed in %v s, %d servers; want none failed, a time, three servers", r.FillFailed, r.FillSeconds, len(r.Servers))
	}
	for _, sv := range r.Servers {
		if sv.RSSBytes == nil || sv.HeapBytes == nil || sv.CPUPerSecond <= 0 || sv.TopicList.Bytes == 0 || sv.ClusterInfo.Bytes == 0 {
			t.Fatalf("server %+v: want RSS, heap, CPU and both answers", sv)
		}
	}
	if r.SteadyBeats.Sent == 0 || r.SteadyBeats.Failed != 0 || r.Idle.OpsPerS <= 0 || r.StormReads.OpsPerS <= 0 {
		t.Fatalf("heartbeats %+v, reads %+v / %+v: want heartbeats, none failed, reads in both windows", r.SteadyBeats, r.Idle, r.StormReads)
	}
	if r.Snapshot == nil || r.Snapshot.Bytes == 0 || r.Snapshot.LocalRestoreMs <= 0 {
		t.Fatalf("snapshot %+v: want a size and a restore time", r.Snapshot)
	}
	st := r.Storm
	if st.Brokers != 8 || st.NeverBack != 0 || st.FailedRegistrations != 0 || st.Routable.Count != 8 {
		t.Fatalf("storm %+v: want all 8 brokers back, no failure", st)
	}
	if r.Restart.AnswersMs <= 0 || r.Restart.CompleteMs < r.Restart.AnswersMs || !strings.HasPrefix(r.Restart.Server, "n") {
		t.Fatalf("restart %+v: want a member that answered, then listed every broker", r.Restart)
	}
	if r.LeaderBefore == "" || r.LeaderAfter == "" {
		t.Fatalf("leader before %q, after %q: want both known", r.LeaderBefore, r.LeaderAfter)
	}
}
