package nscompare

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

func planLines(p *Plan) []string {
	var out []string
	for _, ch := range p.KV {
		line := fmt.Sprintf("kv %s/%s=%s %s", ch.Namespace, ch.Key, ch.Value, ch.Action)
		if ch.Old != nil {
			line += " was " + *ch.Old
		}
		out = append(out, line)
	}
	for _, ch := range p.Perms {
		out = append(out, fmt.Sprintf("perm %s %s", ch.Broker, ch.Action))
	}
	for _, d := range p.Conflicts {
		out = append(out, fmt.Sprintf("conflict %s %s", d.Kind, d.Subject))
	}
	return out
}

func TestPlanImport_KVActionsAndApply(t *testing.T) {
	ref1, ref2 := twin(t)
	target := startFakeNS(t)
	for _, f := range []*fakeNS{ref1, ref2} {
		f.setKV(DefaultNamespace, "New", "broker-a:2")
		f.setKV(DefaultNamespace, "Changed", "broker-a:8")
		f.setKV("EXTRA_NS", "k", "v")
	}
	target.setKV(DefaultNamespace, "TopicA", "broker-a:4")
	target.setKV(DefaultNamespace, "Changed", "broker-a:4")
	target.setKV(DefaultNamespace, "TargetOnly", "x")
	c := newClient(t)
	opts := Options{Namespaces: []string{DefaultNamespace, "EXTRA_NS", "ABSENT_NS"}}
	p, err := PlanImport(testContext(t), c, []string{ref1.addr, ref2.addr}, target.addr, false, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"kv ORDER_TOPIC_CONFIG/Changed=broker-a:8 update was broker-a:4",
		"kv ORDER_TOPIC_CONFIG/New=broker-a:2 set",
		"kv ORDER_TOPIC_CONFIG/TopicA=broker-a:4 unchanged",
		"kv EXTRA_NS/k=v set",
	}
	sameLines(t, "plan", planLines(p), want)
	if target.count(remoting.PutKVConfig) != 0 || p.Writes() != 3 {
		t.Fatalf("planning wrote %d keys; Writes() = %d, want 3", target.count(remoting.PutKVConfig), p.Writes())
	}
	if n, err := Apply(testContext(t), c, p, opts); err != nil || n != 3 {
		t.Fatalf("Apply = %d, %v; want 3 writes", n, err)
	}
	target.with(func(f *fakeNS) {
		if got := f.kv[DefaultNamespace]; got["Changed"] != "broker-a:8" || got["New"] != "broker-a:2" || got["TargetOnly"] != "x" {
			t.Errorf("target KV after import: %v", got)
		}
	})
	// Importing again changes nothing.
	p, err = PlanImport(testContext(t), c, []string{ref1.addr, ref2.addr}, target.addr, false, opts)
	if err != nil || p.Writes() != 0 {
		t.Fatalf("second plan: %q, %v; want no writes", planLines(p), err)
	}
}

func TestPlanImport_ConflictsWriteNothing(t *testing.T) {
	ref1, ref2 := twin(t)
	target := startFakeNS(t)
	ref1.setKV(DefaultNamespace, "OnlyOnRef1", "x")
	ref2.setKV(DefaultNamespace, "TopicA", "broker-a:8")
	ref1.setKV(DefaultNamespace, "Agreed", "y")
	ref2.setKV(DefaultNamespace, "Agreed", "y")
	c := newClient(t)
	p, err := PlanImport(testContext(t), c, []string{ref1.addr, ref2.addr}, target.addr, false, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"kv ORDER_TOPIC_CONFIG/Agreed=y set", "conflict kv ORDER_TOPIC_CONFIG/OnlyOnRef1", "conflict kv ORDER_TOPIC_CONFIG/TopicA"}
	sameLines(t, "plan", planLines(p), want)
	if _, err := Apply(testContext(t), c, p, Options{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("Apply = %v, want ErrConflict", err)
	}
	if n := target.count(remoting.PutKVConfig); n != 0 {
		t.Errorf("a plan with conflicts wrote %d keys", n)
	}
	// One reference alone is a choice of version.
	p, err = PlanImport(testContext(t), c, []string{ref2.addr}, target.addr, false, Options{})
	if err != nil || len(p.Conflicts) != 0 || p.Writes() != 2 {
		t.Fatalf("plan from one reference: %q, %v", planLines(p), err)
	}
}

func TestPlanImport_WritePermission(t *testing.T) {
	ref1, ref2 := twin(t)
	target := startFakeNS(t)
	for _, f := range []*fakeNS{ref1, ref2} {
		f.addTopic("Drained", 4, "broker-d")
		f.addTopic("Gone", 4, "broker-g")
		f.addTopic("Both", 4, "broker-w")
		f.addTopic("ReadOnlyToo", 4, "broker-a")
	}
	ref2.addTopic("Disputed", 6, "broker-x")
	ref1.addTopic("Disputed", 4, "broker-x")
	ref1.addTopic("HalfKnown", 4, "broker-h") // wiped on ref1; ref2 has no queues of broker-h
	for _, f := range []*fakeNS{target} {
		f.addTopic("TopicA", 6, "broker-a")
		f.addTopic("Drained", 6, "broker-d")
		f.addTopic("Both", 4, "broker-w")
		f.addTopic("Disputed", 6, "broker-x")
		f.addTopic("HalfKnown", 6, "broker-h")
	}
	c := newClient(t)
	p, err := PlanImport(testContext(t), c, []string{ref1.addr, ref2.addr}, target.addr, true, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"kv ORDER_TOPIC_CONFIG/TopicA=broker-a:4 set",
		"perm broker-d wipe",
		"perm broker-g not registered",
		"perm broker-h wipe",
		"perm broker-w already wiped",
		"conflict write-perm broker-x",
	}
	sameLines(t, "plan", planLines(p), want)
	p.Conflicts = nil // as if broker-x were settled
	if n, err := Apply(testContext(t), c, p, Options{}); err != nil || n != 3 {
		t.Fatalf("Apply = %d, %v; want 3 writes", n, err)
	}
	target.with(func(f *fakeNS) {
		if perm := f.routes["Drained"].QueueDatas[0].Perm; perm != 4 {
			t.Errorf("Drained perm on the target = %d, want 4", perm)
		}
		if perm := f.routes["TopicA"].QueueDatas[0].Perm; perm != 6 {
			t.Errorf("broker-a (writable on the references) was wiped: perm %d", perm)
		}
	})
}

func TestPlanImport_UnreachableTarget(t *testing.T) {
	ref, _ := twin(t)
	_, err := PlanImport(testContext(t), newClient(t), []string{ref.addr}, "127.0.0.1:1", false, Options{})
	if err == nil || !strings.Contains(err.Error(), "name server 127.0.0.1:1: KV namespace ORDER_TOPIC_CONFIG") {
		t.Fatalf("err = %v", err)
	}
}

// A key RaftNS cannot store (an empty key, a value too large for one
// request) is planned as such, dry run or not, and Apply writes the rest.
func TestPlanImport_NamesWhatRaftNSCannotStoreAndAppliesTheRest(t *testing.T) {
	ref := startFakeNS(t)
	target := startFakeNS(t)
	big := strings.Repeat("v", 64<<10)
	ref.setKV(DefaultNamespace, "", "broker-a:4")
	ref.setKV(DefaultNamespace, "Big", big)
	ref.setKV(DefaultNamespace, "Fits", strings.Repeat("v", 60<<10))
	ref.setKV(DefaultNamespace, "Small", "broker-a:8")
	c := newClient(t)
	opts := Options{Namespaces: []string{DefaultNamespace}}
	p, err := PlanImport(testContext(t), c, []string{ref.addr}, target.addr, false, opts)
	if err != nil {
		t.Fatal(err)
	}
	actions := map[string]Action{}
	for _, ch := range p.KV {
		actions[ch.Key] = ch.Action
		if ch.Action == ActionCannotStore && ch.Reason == "" {
			t.Errorf("key %q cannot be stored but the plan gives no reason", ch.Key)
		}
	}
	want := map[string]Action{"": ActionCannotStore, "Big": ActionCannotStore, "Fits": ActionSet, "Small": ActionSet}
	if fmt.Sprint(actions) != fmt.Sprint(want) || p.Writes() != 2 || p.CannotStore() != 2 {
		t.Fatalf("plan %v (writes %d, cannot store %d); want %v, 2 writes, 2 that cannot be stored", actions, p.Writes(), p.CannotStore(), want)
	}
	if n, err := Apply(testContext(t), c, p, opts); err != nil || n != 2 {
		t.Fatalf("Apply = %d, %v; want the 2 storable keys written", n, err)
	}
	target.with(func(f *fakeNS) {
		got := f.kv[DefaultNamespace]
		if len(got) != 2 || got["Small"] != "broker-a:8" || len(got["Fits"]) != 60<<10 {
			t.Errorf("target KV after the import: %d keys", len(got))
		}
	})
}
