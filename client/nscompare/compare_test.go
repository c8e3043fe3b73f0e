package nscompare

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

// subjects renders differences as "kind subject problem v1|v2", absent as -.
func subjects(r *Result) []string {
	var out []string
	for _, d := range r.Differences {
		var vs []string
		for _, v := range d.Values {
			if v == nil {
				vs = append(vs, "-")
			} else {
				vs = append(vs, *v)
			}
		}
		out = append(out, fmt.Sprintf("%s %s %s %s", d.Kind, d.Subject, d.Problem, strings.Join(vs, "|")))
	}
	return out
}

// sameLines fails the test unless got and want are the same lines.
func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCompare_AgreeingServers(t *testing.T) {
	a, b := twin(t)
	r, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil, Options{DataVersions: true})
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || len(r.Differences) != 0 {
		t.Fatalf("differences %q, want none", subjects(r))
	}
	want := Summary{Server: a.addr, Brokers: 2, Topics: 2, KVKeys: 1}
	if len(r.Summaries) != 2 || r.Summaries[0] != want {
		t.Errorf("summaries %+v, want first %+v", r.Summaries, want)
	}
}

// TestCompare_EveryKindOfDifference makes two servers disagree on one
// subject of each kind and expects exactly those differences.
func TestCompare_EveryKindOfDifference(t *testing.T) {
	a, b := twin(t)
	a.addBroker("broker-b", 0, "10.0.0.3:10911") // a broker group b lacks
	b.addBroker("broker-a", 1, "10.0.0.9:10911") // the slave at another address
	a.addTopic("OnlyOnA", 6, "broker-b")
	b.with(func(f *fakeNS) { f.routes["TopicB"].QueueDatas[0].ReadQueueNums = 8 })
	a.addTopic("Wiped", 4, "broker-a")
	b.addTopic("Wiped", 6, "broker-a")
	a.with(func(f *fakeNS) {
		for _, r := range f.routes {
			for i := range r.QueueDatas {
				if r.QueueDatas[i].BrokerName == "broker-a" {
					r.QueueDatas[i].Perm = 4
				}
			}
		}
	})
	a.setKV(DefaultNamespace, "OnlyOnA", "broker-b:4")
	b.setKV(DefaultNamespace, "TopicA", "broker-a:8")
	b.setKV("OTHER_NS", "k", "v")
	b.with(func(f *fakeNS) { f.config = "orderMessageEnable=TRUE\nlistenPort=9877\nonlyHere=1\n" })
	a.with(func(f *fakeNS) { f.dv["10.0.0.1:10911"] = state.DataVersion{Counter: 2, Timestamp: 5} })
	b.with(func(f *fakeNS) { f.dv["10.0.0.1:10911"] = state.DataVersion{Counter: 1, Timestamp: 5} })

	r, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil,
		Options{Namespaces: []string{DefaultNamespace, "OTHER_NS"}, DataVersions: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"broker broker-a/1 different 10.0.0.2:10911 cluster C|10.0.0.9:10911 cluster C",
		"broker broker-b/0 missing 10.0.0.3:10911 cluster C|-",
		"write-perm broker-a different wiped|writable",
		"write-perm broker-b missing writable|-",
		"topic OnlyOnA missing broker-b r4 w4 perm 6|-",
		"topic TopicA different broker-a r4 w4 perm 4|broker-a r4 w4 perm 6",
		"topic TopicB different broker-a r4 w4 perm 4|broker-a r8 w4 perm 6",
		"topic Wiped different broker-a r4 w4 perm 4|broker-a r4 w4 perm 6",
		"kv ORDER_TOPIC_CONFIG/OnlyOnA missing broker-b:4|-",
		"kv ORDER_TOPIC_CONFIG/TopicA different broker-a:4|broker-a:8",
		"kv OTHER_NS/k missing -|v",
		"config orderMessageEnable different false|true",
		// The brokers no server holds a DataVersion for are no difference.
		"data-version broker-a/0 10.0.0.1:10911 different counter 2 timestamp 5 stateVersion 0|counter 1 timestamp 5 stateVersion 0",
	}
	sameLines(t, "differences", subjects(r), want)
	if r.OK() || r.Found != len(want) || r.ByKind[KindTopic] != 4 {
		t.Errorf("found %d byKind %v, want %d with 4 topics", r.Found, r.ByKind, len(want))
	}
}

func TestCompare_VerifyNamesWhatTheTargetLacks(t *testing.T) {
	ref, target := twin(t)
	ref.addBroker("broker-b", 0, "10.0.0.3:10911")
	ref.addTopic("NotYet", 6, "broker-b")
	target.addTopic("OnlyOnTarget", 6, "broker-a")
	target.with(func(f *fakeNS) { delete(f.kv[DefaultNamespace], "TopicA") })
	r, err := Compare(testContext(t), newClient(t), []string{ref.addr}, []string{target.addr}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"broker broker-b/0 missing 10.0.0.3:10911 cluster C|-",
		"write-perm broker-b missing writable|-",
		"topic NotYet missing broker-b r4 w4 perm 6|-",
		"topic OnlyOnTarget extra -|broker-a r4 w4 perm 6",
		"kv ORDER_TOPIC_CONFIG/TopicA missing broker-a:4|-",
	}
	sameLines(t, "differences", subjects(r), want)
	if r.Found != 4 || r.Extras != 1 || r.Targets != 1 || !r.Summaries[1].Target {
		t.Errorf("found %d extras %d targets %d summaries %+v", r.Found, r.Extras, r.Targets, r.Summaries)
	}
}

func TestCompare_SettingsOnlyWhereEveryServerHasThem(t *testing.T) {
	a, b := twin(t)
	a.with(func(f *fakeNS) { f.config = "supportActingMaster=true\norderMessageEnable=false\n" })
	b.with(func(f *fakeNS) { f.config = "orderMessageEnable = false \n" })
	r, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil, Options{})
	if err != nil || !r.OK() {
		t.Fatalf("Compare = %q, %v; want agreement (supportActingMaster is not on both)", subjects(r), err)
	}
}

func TestCompare_DataVersionsAskOnlyServersThatListTheBroker(t *testing.T) {
	a, b := twin(t)
	a.addBroker("broker-b", 0, "10.0.0.3:10911")
	if _, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil, Options{DataVersions: true}); err != nil {
		t.Fatal(err)
	}
	if got := a.count(remoting.QueryDataVersion); got != 3 {
		t.Errorf("a was asked %d data versions, want 3", got)
	}
	if got := b.count(remoting.QueryDataVersion); got != 2 {
		t.Errorf("b was asked %d data versions, want 2 (never for broker-b)", got)
	}
	if _, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := a.count(remoting.QueryDataVersion); got != 3 {
		t.Errorf("without DataVersions a was asked again: %d", got)
	}
}

func TestCompare_ManyTopicsBoundedConcurrencyAndProgress(t *testing.T) {
	a, b := twin(t)
	const topics = 3000
	for i := range topics {
		a.addTopic(fmt.Sprintf("T%05d", i), 6, "broker-a")
		b.addTopic(fmt.Sprintf("T%05d", i), 6, "broker-a")
	}
	b.with(func(f *fakeNS) { delete(f.routes, "T00042") })
	var mu sync.Mutex
	var last [3]int
	calls := 0
	opts := Options{Concurrency: 4, MaxDifferences: 1, Progress: func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if stage == "routes" {
			last = [3]int{done, total, calls}
		}
	}}
	r, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := subjects(r); len(got) != 1 || got[0] != "topic T00042 missing broker-a r4 w4 perm 6|-" {
		t.Errorf("differences %q", got)
	}
	if r.Omitted != 0 || r.Found != 1 || r.Summaries[0].Topics != topics+2 {
		t.Errorf("found %d omitted %d summary %+v", r.Found, r.Omitted, r.Summaries[0])
	}
	if m := a.maxInFlight.Load(); m > 4 {
		t.Errorf("%d requests in flight to one server, want at most 4", m)
	}
	if last[0] != topics+2 || last[1] != topics+2 {
		t.Errorf("last progress %d/%d, want %d/%d", last[0], last[1], topics+2, topics+2)
	}
}

func TestCompare_MaxDifferencesCountsTheRest(t *testing.T) {
	a, b := twin(t)
	for i := range 50 {
		a.addTopic(fmt.Sprintf("X%02d", i), 6, "broker-a")
	}
	a.setKV(DefaultNamespace, "Extra", "x")
	r, err := Compare(testContext(t), newClient(t), []string{a.addr, b.addr}, nil, Options{MaxDifferences: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Differences) != 11 || r.Found != 51 || r.Omitted != 40 || r.Differences[9].Subject != "X09" || r.Differences[10].Kind != KindKV {
		t.Errorf("kept %d found %d omitted %d, want 11 (X00 to X09 and the KV key), 51, 40: %q",
			len(r.Differences), r.Found, r.Omitted, subjects(r))
	}
}

func TestCompare_Failures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	cases := []struct {
		name  string
		setup func(a, b *fakeNS)
		refs  func(a, b *fakeNS) []string
		opts  Options
		want  string
	}{
		{"unreachable", nil, func(a, _ *fakeNS) []string { return []string{a.addr, closed} },
			Options{}, "name server " + closed + ": cluster info: remoting: connect " + closed},
		{"unreadable cluster info", func(a, _ *fakeNS) { a.with(func(f *fakeNS) { f.garbage[remoting.GetBrokerClusterInfo] = true }) },
			nil, Options{}, ": cluster info: "},
		{"unreadable route", func(_, b *fakeNS) { b.with(func(f *fakeNS) { f.garbage[remoting.GetRouteInfoByTopic] = true }) },
			nil, Options{}, ": route of Topic"},
		{"route never answered", func(_, b *fakeNS) { b.with(func(f *fakeNS) { f.hang = true }) },
			nil, Options{RequestTimeout: 200 * time.Millisecond}, "context deadline exceeded"},
		{"unreadable KV namespace", func(a, _ *fakeNS) { a.with(func(f *fakeNS) { f.garbage[remoting.GetKVListByNamespace] = true }) },
			nil, Options{}, ": KV namespace ORDER_TOPIC_CONFIG: "},
		{"error answer", func(_, b *fakeNS) { b.with(func(f *fakeNS) { f.refuse[remoting.GetNamesrvConfig] = true }) },
			nil, Options{}, ": name server config: nsclient: response code 1: refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := twin(t)
			if tc.setup != nil {
				tc.setup(a, b)
			}
			refs := []string{a.addr, b.addr}
			if tc.refs != nil {
				refs = tc.refs(a, b)
			}
			_, err := Compare(testContext(t), newClient(t), refs, nil, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestCompare_RefusesBadOptions(t *testing.T) {
	a, _ := twin(t)
	cases := []struct {
		name          string
		refs, targets []string
		opts          Options
	}{
		{"no servers", nil, nil, Options{}},
		{"listed twice", []string{a.addr, a.addr}, nil, Options{}},
		{"ref is a target", []string{a.addr}, []string{a.addr}, Options{}},
		{"empty address", []string{""}, nil, Options{}},
		{"concurrency", []string{a.addr}, nil, Options{Concurrency: MaxConcurrency + 1}},
		{"negative concurrency", []string{a.addr}, nil, Options{Concurrency: -1}},
		{"negative timeout", []string{a.addr}, nil, Options{RequestTimeout: -time.Second}},
		{"negative max", []string{a.addr}, nil, Options{MaxDifferences: -1}},
		{"empty namespace", []string{a.addr}, nil, Options{Namespaces: []string{""}}},
	}
	for _, tc := range cases {
		if _, err := Compare(testContext(t), newClient(t), tc.refs, tc.targets, tc.opts); !errors.Is(err, ErrOptions) {
			t.Errorf("%s: err = %v, want ErrOptions", tc.name, err)
		}
	}
	if got := a.count(remoting.GetBrokerClusterInfo); got != 0 {
		t.Errorf("bad options sent %d requests", got)
	}
}
