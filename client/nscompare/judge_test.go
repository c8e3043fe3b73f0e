package nscompare

import (
	"fmt"
	"strings"
	"testing"
)

// vals turns "" into an absent value and anything else into a value.
func vals(s ...string) []*string {
	out := make([]*string, len(s))
	for i, v := range s {
		if v != "" {
			out[i] = &v
		}
	}
	return out
}

func TestJudge_Report(t *testing.T) {
	cases := []struct {
		name   string
		values []*string
		want   Problem
	}{
		{"one server", vals("x"), ""},
		{"all equal", vals("x", "x", "x"), ""},
		{"absent everywhere", vals("", ""), ""},
		{"absent on the second", vals("x", ""), Missing},
		{"absent on the first", vals("", "x"), Missing},
		{"different values", vals("x", "y"), Different},
		{"one of three differs", vals("x", "x", "y"), Different},
		{"absent and different", vals("x", "", "y"), Missing},
		{"empty string is a value", append(vals("x"), new(string)), Different},
	}
	for _, tc := range cases {
		if got := judge(tc.values, 0); got != tc.want {
			t.Errorf("%s: judge = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestJudge_Verify(t *testing.T) {
	cases := []struct {
		name    string
		values  []*string
		targets int
		want    Problem
	}{
		{"target has the value", vals("x", "x"), 1, ""},
		{"target lacks it", vals("x", ""), 1, Missing},
		{"target has another value", vals("x", "y"), 1, Different},
		{"only the target has it", vals("", "x"), 1, Extra},
		{"nobody has it", vals("", ""), 1, ""},
		{"references disagree, target has one of them", vals("x", "y", "y"), 1, ""},
		{"reference on one only, target has it", vals("x", "", "x"), 1, ""},
		{"one of two targets lacks it", vals("x", "x", ""), 2, Missing},
		{"one of two targets differs", vals("x", "x", "z"), 2, Different},
		{"missing wins over different", vals("x", "z", ""), 2, Missing},
		{"extra on every target", vals("", "x", "y"), 2, Extra},
	}
	for _, tc := range cases {
		if got := judge(tc.values, tc.targets); got != tc.want {
			t.Errorf("%s: judge = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCollector_KeepsAtMostMaxOfEachKindAndCountsAll(t *testing.T) {
	c := newCollector(0, 2)
	for i := range 5 {
		c.add(KindTopic, fmt.Sprintf("T%d", 4-i), vals("x", ""))
	}
	c.add(KindKV, "NS/k", vals("a", "b"))
	c.add(KindKV, "NS/same", vals("a", "a"))
	r := c.result([]string{"a", "b"}, nil)
	if r.Found != 6 || r.Omitted != 3 || len(r.Differences) != 3 || r.ByKind[KindTopic] != 5 || r.ByKind[KindKV] != 1 {
		t.Fatalf("found %d omitted %d kept %d byKind %v, want 6, 3, 3, {topic 5, kv 1}", r.Found, r.Omitted, len(r.Differences), r.ByKind)
	}
	if got := subjectsOf(r); got != "T0 T1 NS/k" {
		t.Errorf("kept %s, want the two smallest topics and the KV key", got)
	}
	if r.OK() {
		t.Error("OK with differences found")
	}
}

func subjectsOf(r *Result) string {
	var s []string
	for _, d := range r.Differences {
		s = append(s, d.Subject)
	}
	return strings.Join(s, " ")
}

func TestCollector_ExtrasDoNotFail(t *testing.T) {
	c := newCollector(1, 0)
	c.add(KindTopic, "OnlyOnTarget", vals("", "x"))
	r := c.result([]string{"ref", "target"}, nil)
	if !r.OK() || r.Extras != 1 || len(r.Differences) != 1 || r.Differences[0].Problem != Extra {
		t.Fatalf("result %+v, want OK with one extra listed", r)
	}
}

func TestCollector_SortsByKindThenSubject(t *testing.T) {
	c := newCollector(0, 0)
	c.add(KindKV, "NS/b", vals("1", ""))
	c.add(KindTopic, "Z", vals("1", ""))
	c.add(KindBroker, "b/0", vals("1", ""))
	c.add(KindTopic, "A", vals("1", ""))
	c.add(KindConfig, "orderMessageEnable", vals("true", "false"))
	c.add(KindDataVersion, "b/0 10.0.0.1:1", vals("1", "2"))
	c.add(KindWritePerm, "b", vals("wiped", "writable"))
	var got []string
	for _, d := range c.result(nil, nil).Differences {
		got = append(got, string(d.Kind)+" "+d.Subject)
	}
	want := []string{"broker b/0", "write-perm b", "topic A", "topic Z", "kv NS/b", "config orderMessageEnable",
		"data-version b/0 10.0.0.1:1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestDescribe_Values(t *testing.T) {
	route := routeValue([]queue{{broker: "b", read: 8, write: 8, perm: 4}, {broker: "a", read: 4, write: 2, perm: 6, sysFlg: 1}},
		[]mapping{{broker: "b", epoch: 3, totalQueues: 8}})
	if want := "a r4 w2 perm 6 sysflag 1; b r8 w8 perm 4; mapping b epoch 3 total 8"; route != want {
		t.Errorf("routeValue = %q, want %q", route, want)
	}
	if got := routeValue(nil, nil); got != "no queues" {
		t.Errorf("empty route = %q", got)
	}
	b := broker{cluster: "C", name: "b", addr: "10.0.0.1:10911", zone: "z1", id: 1, actingMaster: true}
	if b.subject() != "b/1" || b.value() != "10.0.0.1:10911 cluster C zone z1 acting-master" {
		t.Errorf("broker subject %q value %q", b.subject(), b.value())
	}
	for _, tc := range []struct {
		t     tally
		want  string
		wiped bool
	}{{tally{3, 3}, "writable", false}, {tally{3, 0}, "wiped", true}, {tally{3, 1}, "partly writable", false}} {
		if tc.t.value() != tc.want || tc.t.wiped() != tc.wiped {
			t.Errorf("%+v: value %q wiped %v, want %q %v", tc.t, tc.t.value(), tc.t.wiped(), tc.want, tc.wiped)
		}
	}
}
