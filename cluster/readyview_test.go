package cluster

import (
	"fmt"
	"testing"
	"time"
)

func TestReadyView_LeaderCountsWhatItHeard(t *testing.T) {
	v := newReadyView(time.Second) // fresh: 3 s
	t0 := time.Unix(1000, 0)
	all := []string{"n1", "n2", "n3", "n4"}
	if got := v.leaderReady("n1", all, t0); got != nil {
		t.Fatalf("out of office: %v", got)
	}
	v.takeOffice(t0)
	// Before the first batches, every member counts: a new leader does
	// not shorten the list.
	if got := fmt.Sprint(v.leaderReady("n1", all, t0.Add(time.Second))); got != "[n1 n2 n3 n4]" {
		t.Fatalf("at the start of office: %s", got)
	}
	v.heardFrom("n2", true, t0.Add(time.Second))
	v.heardFrom("n3", false, t0.Add(time.Second))
	if got := fmt.Sprint(v.leaderReady("n1", all, t0.Add(2*time.Second))); got != "[n1 n2 n4]" {
		t.Fatalf("with n3 not ready: %s", got)
	}
	// n4 never sent a batch, n2's is too old: only the leader is left.
	if got := fmt.Sprint(v.leaderReady("n1", all, t0.Add(10*time.Second))); got != "[n1]" {
		t.Fatalf("later: %s", got)
	}
	v.leaveOffice()
	v.takeOffice(t0.Add(20 * time.Second))
	if got := fmt.Sprint(v.leaderReady("n1", all, t0.Add(21*time.Second))); got != "[n1 n2 n3 n4]" {
		t.Fatalf("a new term kept the old table: %s", got)
	}
}

func TestReadyView_FollowerKeepsTheLeadersLastWord(t *testing.T) {
	v := newReadyView(time.Second)
	if _, known := v.followerReady(); known {
		t.Fatal("a report before any answer")
	}
	v.noteReport([]string{"n1", "n3"})
	if ids, known := v.followerReady(); !known || fmt.Sprint(ids) != "[n1 n3]" {
		t.Fatalf("report = %v, %v", ids, known)
	}
	// A leader of a release that reports nothing: the list is unknown
	// again, not the previous leader's.
	v.noteReport(nil)
	if _, known := v.followerReady(); known {
		t.Fatal("an empty answer kept the previous report")
	}
}
