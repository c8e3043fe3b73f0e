package body

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func clusterInfoExample() *state.ClusterInfo {
	return &state.ClusterInfo{
		BrokerAddrTable: map[string]state.BrokerData{"broker-a": {
			Cluster: "DefaultCluster", BrokerName: "broker-a", ZoneName: "zone1",
			BrokerAddrs: map[int64]string{0: "10.0.0.1:10911", 1: "10.0.0.2:10911"},
		}},
		ClusterAddrTable: map[string][]string{"DefaultCluster": {"broker-a"}},
	}
}

func TestEncodeClusterInfo_Golden(t *testing.T) {
	cases := []struct {
		name   string
		ci     *state.ClusterInfo
		golden string
	}{
		{"protocol example", clusterInfoExample(), "clusterinfo.json"},
		{"empty state", &state.ClusterInfo{}, "clusterinfo_empty.json"},
		{"nil", nil, "clusterinfo_empty.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := EncodeClusterInfo(tc.ci), readGolden(t, tc.golden); string(got) != string(want) {
				t.Fatalf("got %s, want %s", got, want)
			}
		})
	}
}

func TestEncodeClusterInfo_SortedAndUnquoted(t *testing.T) {
	ci := &state.ClusterInfo{
		BrokerAddrTable: map[string]state.BrokerData{
			"broker-b": {Cluster: "c2", BrokerName: "broker-b", BrokerAddrs: map[int64]string{10: "b10", 2: "b2"}},
			"broker-a": {Cluster: "c1", BrokerName: "broker-a", BrokerAddrs: map[int64]string{0: "a/0"}, EnableActingMaster: true},
		},
		ClusterAddrTable: map[string][]string{"c2": {"broker-b"}, "c1": {"broker-a"}},
	}
	want := `{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"a/0"},"brokerName":"broker-a","cluster":"c1","enableActingMaster":true},` +
		`"broker-b":{"brokerAddrs":{2:"b2",10:"b10"},"brokerName":"broker-b","cluster":"c2","enableActingMaster":false}},` +
		`"clusterAddrTable":{"c1":["broker-a"],"c2":["broker-b"]}}`
	if got := string(EncodeClusterInfo(ci)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	back, err := DecodeClusterInfo([]byte(want))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(back, ci) {
		t.Fatalf("round trip: got %+v, want %+v", back, ci)
	}
}

func TestDecodeClusterInfo_Golden(t *testing.T) {
	got, err := DecodeClusterInfo(readGolden(t, "clusterinfo.json"))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if want := clusterInfoExample(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	empty, err := DecodeClusterInfo([]byte(`{"brokerAddrTable":null}`))
	if err != nil || empty.BrokerAddrTable == nil || empty.ClusterAddrTable == nil {
		t.Fatalf("null table: got %+v, %v; want empty non-nil maps", empty, err)
	}
}

func TestEncodeTopicList_Golden(t *testing.T) {
	cases := []struct {
		name string
		tl   *state.TopicList
		want string
	}{
		{"topics", &state.TopicList{Topics: []string{"TopicA", "TopicB"}}, string(readGolden(t, "topiclist.json"))},
		{"system list with broker address", &state.TopicList{Topics: []string{"DefaultCluster", "broker-a"}, BrokerAddr: "10.0.0.1:10911"},
			string(readGolden(t, "topiclist_system.json"))},
		{"empty", &state.TopicList{}, `{"topicList":[]}`},
		{"nil", nil, `{"topicList":[]}`},
		{"escaping stays default", &state.TopicList{Topics: []string{"é/\u2028"}}, `{"topicList":["é/\u2028"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(EncodeTopicList(tc.tl)); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestTopicList_RoundTrip(t *testing.T) {
	for _, tl := range []*state.TopicList{
		{Topics: []string{"TopicB", "TopicA", "%RETRY%g"}},
		{Topics: []string{"c"}, BrokerAddr: "[::1]:10911"},
		{Topics: []string{}},
	} {
		got, err := DecodeTopicList(EncodeTopicList(tl))
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, tl) {
			t.Fatalf("got %+v, want %+v", got, tl)
		}
	}
}

func TestKVTable_GoldenAndRoundTrip(t *testing.T) {
	table := map[string]string{"TopicB": "broker-a:4", "TopicA": "broker-a:8;broker-b:8"}
	if got, want := EncodeKVTable(table), readGolden(t, "kvtable.json"); string(got) != string(want) {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := string(EncodeKVTable(nil)); got != `{"table":{}}` {
		t.Fatalf("nil table: got %s", got)
	}
	back, err := DecodeKVTable(readGolden(t, "kvtable.json"))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(back, table) {
		t.Fatalf("got %v, want %v", back, table)
	}
	lenient, err := DecodeKVTable([]byte(`{table:{'a':1,"b":null,"c":true}}`))
	if want := map[string]string{"a": "1", "c": "true"}; err != nil || !reflect.DeepEqual(lenient, want) {
		t.Fatalf("lenient: got %v, %v; want %v", lenient, err, want)
	}
}

func TestBrokerMemberGroup_GoldenAndRoundTrip(t *testing.T) {
	g := &state.BrokerMemberGroup{Cluster: "DefaultCluster", BrokerName: "broker-a",
		BrokerAddrs: map[int64]string{1: "10.0.0.2:10911", 0: "10.0.0.1:10911"}}
	if got, want := EncodeBrokerMemberGroup(g), readGolden(t, "membergroup.json"); string(got) != string(want) {
		t.Fatalf("got %s, want %s", got, want)
	}
	back, err := DecodeBrokerMemberGroup(readGolden(t, "membergroup.json"))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(back, g) {
		t.Fatalf("got %+v, want %+v", back, g)
	}
	if got := string(EncodeBrokerMemberGroup(nil)); got != "{}" {
		t.Fatalf("nil group: got %s", got)
	}
	for _, in := range []string{`{}`, `{"brokerMemberGroup":null}`} {
		empty, err := DecodeBrokerMemberGroup([]byte(in))
		if err != nil || empty.BrokerAddrs == nil || empty.BrokerName != "" {
			t.Fatalf("%s: got %+v, %v; want an empty group", in, empty, err)
		}
	}
}

func TestDataVersion_GoldenAndDefaults(t *testing.T) {
	dv := state.DataVersion{Timestamp: ts, Counter: 12, StateVersion: 3}
	if got, want := EncodeDataVersion(dv), readGolden(t, "dataversion.json"); string(got) != string(want) {
		t.Fatalf("got %s, want %s", got, want)
	}
	cases := []struct {
		name string
		in   string
		want state.DataVersion
	}{
		{"golden", string(readGolden(t, "dataversion.json")), dv},
		{"4.x shape without stateVersion", `{"counter":12,"timestamp":1700000000000}`, state.DataVersion{Timestamp: ts, Counter: 12}},
		{"missing timestamp takes the default", `{"counter":1}`, state.DataVersion{Timestamp: 555, Counter: 1}},
		{"null timestamp takes the default", `{"timestamp":null}`, state.DataVersion{Timestamp: 555}},
		{"negative and extreme values", `{"counter":-1,"stateVersion":9223372036854775807,"timestamp":-9223372036854775808}`,
			state.DataVersion{Timestamp: -1 << 63, Counter: -1, StateVersion: 1<<63 - 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeDataVersion([]byte(tc.in), 555)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestSmallBodies_DecodeErrors checks that every small-body decoder rejects
// bad input with its body name and a sentinel.
func TestSmallBodies_DecodeErrors(t *testing.T) {
	decoders := map[string]func([]byte) error{
		"ClusterInfo": func(b []byte) error { _, err := DecodeClusterInfo(b); return err },
		"TopicList":   func(b []byte) error { _, err := DecodeTopicList(b); return err },
		"KVTable":     func(b []byte) error { _, err := DecodeKVTable(b); return err },
		"GetBrokerMemberGroupResponseBody": func(b []byte) error {
			_, err := DecodeBrokerMemberGroup(b)
			return err
		},
		"DataVersion": func(b []byte) error { _, err := DecodeDataVersion(b, 0); return err },
	}
	inputs := []struct {
		name string
		in   string
		want error
	}{
		{"empty", "", ErrEmptyBody},
		{"null", "null", ErrEmptyBody},
		{"array", "[1]", ErrType},
		{"truncated", `{"a":`, ErrSyntax},
		{"garbage", "\x00\x01", ErrSyntax},
	}
	for body, decode := range decoders {
		for _, in := range inputs {
			err := decode([]byte(in.in))
			if !errors.Is(err, in.want) || !strings.HasPrefix(err.Error(), "body: decode "+body+": ") {
				t.Errorf("%s %s: err = %v, want %v with the body name", body, in.name, err, in.want)
			}
		}
	}
	typed := []struct {
		name, body, in string
	}{
		{"cluster broker id", "ClusterInfo", `{"brokerAddrTable":{"a":{"brokerAddrs":{"x":"y"}}}}`},
		{"cluster names not a list", "ClusterInfo", `{"clusterAddrTable":{"c":"a"}}`},
		{"topic list an object", "TopicList", `{"topicList":{}}`},
		{"kv value an object", "KVTable", `{"table":{"a":{}}}`},
		{"member group a list", "GetBrokerMemberGroupResponseBody", `{"brokerMemberGroup":[]}`},
		{"data version counter a word", "DataVersion", `{"counter":"many"}`},
	}
	for _, tc := range typed {
		if err := decoders[tc.body]([]byte(tc.in)); !errors.Is(err, ErrType) {
			t.Errorf("%s: err = %v, want ErrType", tc.name, err)
		}
	}
}
