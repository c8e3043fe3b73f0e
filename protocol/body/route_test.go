package body

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func TestEncodeRoute_Golden(t *testing.T) {
	cases := []struct {
		name   string
		route  *state.TopicRouteData
		mode   Mode
		golden string
	}{
		{"version 317 default", oneGroupRoute(), RouteMode(317, false), "route_v317_default.json"},
		{"version 409 standard", oneGroupRoute(), RouteMode(409, false), "route_v409_standard.json"},
		{"zone and order conf default", zoneRoute(), Default, "route_zone_default.json"},
		{"zone and order conf standard", zoneRoute(), Standard, "route_zone_standard.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := EncodeRoute(tc.route, tc.mode)
			if want := readGolden(t, tc.golden); string(got) != string(want) {
				t.Fatalf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestEncodeRoute_EscapingFragments checks the zone and orderTopicConf fragments of testdata/bodies/route_zone_*.json.
func TestEncodeRoute_EscapingFragments(t *testing.T) {
	def := string(EncodeRoute(zoneRoute(), Default))
	wantDef := `"enableActingMaster":false,"zoneName":"zone1"}],"filterServerTable":{},"orderTopicConf":"broker-a:4;broker-é/b:2","queueDatas":`
	if !strings.Contains(def, wantDef) {
		t.Errorf("Default body %s lacks %s", def, wantDef)
	}
	std := string(EncodeRoute(zoneRoute(), Standard))
	wantStd := `"orderTopicConf":"broker-a:4;broker-\u00E9\/b:2",`
	if !strings.Contains(std, wantStd) {
		t.Errorf("Standard body %s lacks %s", std, wantStd)
	}
}

func TestEncodeRoute_BrokerAddrsNumericOrder(t *testing.T) {
	r := oneGroupRoute()
	r.BrokerDatas[0].BrokerAddrs = map[int64]string{10: "b:1", 2: "a:1", -1: "n:1"}
	cases := []struct {
		mode Mode
		want string
	}{
		{Default, `"brokerAddrs":{-1:"n:1",2:"a:1",10:"b:1"}`},
		{Standard, `"brokerAddrs":{"-1":"n:1","2":"a:1","10":"b:1"}`},
	}
	for _, tc := range cases {
		if got := string(EncodeRoute(r, tc.mode)); !strings.Contains(got, tc.want) {
			t.Errorf("%v: got %s, want it to contain %s", tc.mode, got, tc.want)
		}
	}
}

func TestEncodeRoute_EmptyAndNil(t *testing.T) {
	cases := []struct {
		name  string
		route *state.TopicRouteData
		want  string
	}{
		{"nil route", nil, `{"brokerDatas":[],"filterServerTable":{},"queueDatas":[]}`},
		{"zero route", &state.TopicRouteData{}, `{"brokerDatas":[],"filterServerTable":{},"queueDatas":[]}`},
		{"nil brokerAddrs written as object", &state.TopicRouteData{BrokerDatas: []state.BrokerData{{Cluster: "c", BrokerName: "b"}}},
			`{"brokerDatas":[{"brokerAddrs":{},"brokerName":"b","cluster":"c","enableActingMaster":false}],"filterServerTable":{},"queueDatas":[]}`},
		{"empty mapping map kept", &state.TopicRouteData{TopicQueueMappingByBroker: map[string]state.TopicQueueMappingInfo{}},
			`{"brokerDatas":[],"filterServerTable":{},"queueDatas":[],"topicQueueMappingByBroker":{}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []Mode{Default, Standard} {
				if got := string(EncodeRoute(tc.route, m)); got != tc.want {
					t.Errorf("%v: got %s, want %s", m, got, tc.want)
				}
			}
		})
	}
}

func TestEncodeRoute_FilterServerTableAndMapping(t *testing.T) {
	r := &state.TopicRouteData{
		FilterServerTable: map[string][]string{"10.0.0.2:10911": {"f2"}, "10.0.0.1:10911": {"f1/x", "f1b"}, "10.0.0.3:10911": nil},
		TopicQueueMappingByBroker: map[string]state.TopicQueueMappingInfo{
			"broker-b": {Topic: "TopicS", Scope: "__global__", TotalQueues: 2, Bname: "broker-b", Epoch: 1 << 53, CurrIDMap: map[int32]int32{10: 1, 2: 0}},
			"broker-a": {Topic: "TopicS", TotalQueues: 2, Bname: "broker-a", Dirty: true},
		},
	}
	cases := []struct {
		mode Mode
		want string
	}{
		{Default, `{"brokerDatas":[],"filterServerTable":{"10.0.0.1:10911":["f1/x","f1b"],"10.0.0.2:10911":["f2"],"10.0.0.3:10911":[]},"queueDatas":[],` +
			`"topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","dirty":true,"epoch":0,"topic":"TopicS","totalQueues":2},` +
			`"broker-b":{"bname":"broker-b","currIdMap":{2:0,10:1},"dirty":false,"epoch":9007199254740992,"scope":"__global__","topic":"TopicS","totalQueues":2}}}`},
		{Standard, `{"brokerDatas":[],"filterServerTable":{"10.0.0.1:10911":["f1\/x","f1b"],"10.0.0.2:10911":["f2"],"10.0.0.3:10911":[]},"queueDatas":[],` +
			`"topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","dirty":true,"epoch":0,"topic":"TopicS","totalQueues":2},` +
			`"broker-b":{"bname":"broker-b","currIdMap":{"2":0,"10":1},"dirty":false,"epoch":"9007199254740992","scope":"__global__","topic":"TopicS","totalQueues":2}}}`},
	}
	for _, tc := range cases {
		if got := string(EncodeRoute(r, tc.mode)); got != tc.want {
			t.Errorf("%v:\ngot  %s\nwant %s", tc.mode, got, tc.want)
		}
	}
}

func TestEncodeTopicRouteData_IsDefaultMode(t *testing.T) {
	if got, want := string(EncodeTopicRouteData(oneGroupRoute())), string(readGolden(t, "route_v317_default.json")); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestAppendRoute_ReusesBuffer(t *testing.T) {
	buf := make([]byte, 0, 1024)
	out := AppendRoute(buf[:0], oneGroupRoute(), Default)
	if &out[0] != &buf[:1][0] {
		t.Fatal("AppendRoute did not write into the given buffer")
	}
	if string(out) != string(readGolden(t, "route_v317_default.json")) {
		t.Fatalf("got %s", out)
	}
}

func TestRouteMode_Selection(t *testing.T) {
	cases := []struct {
		version int32
		accept  bool
		want    Mode
	}{
		{121, false, Default}, {317, false, Default}, {400, false, Default},
		{401, false, Standard}, {409, false, Standard}, {479, false, Standard},
		{317, true, Standard},
	}
	for _, tc := range cases {
		if got := RouteMode(tc.version, tc.accept); got != tc.want {
			t.Errorf("RouteMode(%d, %v) = %v, want %v", tc.version, tc.accept, got, tc.want)
		}
	}
}

func TestDecodeTopicRouteData_Goldens(t *testing.T) {
	cases := []struct {
		golden string
		want   *state.TopicRouteData
	}{
		{"route_v317_default.json", oneGroupRoute()},
		{"route_v409_standard.json", oneGroupRoute()},
		{"route_zone_default.json", zoneRoute()},
		{"route_zone_standard.json", zoneRoute()},
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			got, err := DecodeTopicRouteData(readGolden(t, tc.golden))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRoute_RoundTrip(t *testing.T) {
	withMapping := twoGroupRoute()
	withMapping.OrderTopicConf = "broker-a:8;broker-b:8"
	withMapping.BrokerDatas[1].EnableActingMaster = true
	withMapping.BrokerDatas[1].ZoneName = "zone-ü"
	withMapping.QueueDatas[1].TopicSysFlag = state.FlagUnit
	withMapping.FilterServerTable["10.0.0.1:10911"] = []string{"10.0.0.1:30000"}
	withMapping.TopicQueueMappingByBroker = map[string]state.TopicQueueMappingInfo{
		"broker-a": {Topic: "T", Scope: "__global__", TotalQueues: 4, Bname: "broker-a", Epoch: 1 << 60, Dirty: true, CurrIDMap: map[int32]int32{0: 0, 3: 1}},
	}
	odd := oneGroupRoute()
	odd.BrokerDatas[0].BrokerName = "b\"\\/\x01\u2028\u0085😀"
	odd.BrokerDatas[0].BrokerAddrs = map[int64]string{-1: "[::1]:10911", 1 << 62: "x"}
	for name, r := range map[string]*state.TopicRouteData{"one group": oneGroupRoute(), "two groups with extras": withMapping, "odd characters": odd} {
		for _, m := range []Mode{Default, Standard} {
			got, err := DecodeTopicRouteData(EncodeRoute(r, m))
			if err != nil {
				t.Fatalf("%s %v: decode: %v", name, m, err)
			}
			if !reflect.DeepEqual(got, r) {
				t.Errorf("%s %v: got %+v, want %+v", name, m, got, r)
			}
		}
	}
}

func TestDecodeTopicRouteData_Lenient(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want *state.TopicRouteData
	}{
		{"single quotes and bare keys",
			`{brokerDatas:[{'brokerAddrs':{0:'a:1'},brokerName:'b',cluster:'c'}],queueDatas:[{brokerName:'b',perm:6}]}`,
			&state.TopicRouteData{
				BrokerDatas:       []state.BrokerData{{Cluster: "c", BrokerName: "b", BrokerAddrs: map[int64]string{0: "a:1"}}},
				QueueDatas:        []state.QueueData{{BrokerName: "b", Perm: 6}},
				FilterServerTable: map[string][]string{},
			}},
		{"mixed quoted and bare ids, extra commas",
			`{"brokerDatas":[,{"brokerAddrs":{0:"a:1",,"1":"b:2",},},],}`,
			&state.TopicRouteData{
				BrokerDatas:       []state.BrokerData{{BrokerAddrs: map[int64]string{0: "a:1", 1: "b:2"}}},
				FilterServerTable: map[string][]string{},
			}},
		{"numbers as strings and strings as numbers",
			`{"queueDatas":[{"brokerName":7,"perm":"6","readQueueNums":"4","writeQueueNums":4.0e0}]}`,
			nil},
		{"ref object reads as empty",
			`{"brokerDatas":[{"brokerAddrs":{"$ref":"$.brokerDatas[0]"},"brokerName":"b"}],"filterServerTable":{"$ref":"@"}}`,
			&state.TopicRouteData{
				BrokerDatas:       []state.BrokerData{{BrokerName: "b", BrokerAddrs: map[int64]string{}}},
				FilterServerTable: map[string][]string{},
			}},
		{"nulls and unknown keys",
			`{"brokerDatas":null,"queueDatas":null,"filterServerTable":null,"orderTopicConf":null,"extra":{"x":[1,2,{}]},"topicQueueMappingByBroker":null}`,
			&state.TopicRouteData{FilterServerTable: map[string][]string{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeTopicRouteData([]byte(tc.in))
			if tc.want == nil {
				if !errors.Is(err, ErrType) {
					t.Fatalf("err = %v, want ErrType (4.0e0 is not an integer)", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestDecodeTopicRouteData_StringsFromScalars(t *testing.T) {
	got, err := DecodeTopicRouteData([]byte(`{"queueDatas":[{"brokerName":7,"perm":"6","readQueueNums":"4","writeQueueNums":""}],"orderTopicConf":true}`))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	want := []state.QueueData{{BrokerName: "7", Perm: 6, ReadQueueNums: 4}}
	if !reflect.DeepEqual(got.QueueDatas, want) || got.OrderTopicConf != "true" {
		t.Fatalf("got %+v / %q, want %+v / \"true\"", got.QueueDatas, got.OrderTopicConf, want)
	}
}

func TestDecodeTopicRouteData_Errors(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		want    error
		errText string
	}{
		{"empty", "", ErrEmptyBody, "body: decode TopicRouteData: empty body"},
		{"whitespace", " \n", ErrEmptyBody, ""},
		{"null", "null", ErrEmptyBody, ""},
		{"null then garbage", "null x", ErrSyntax, ""},
		{"array at top", `[]`, ErrType, "want object, got array"},
		{"string at top", `"x"`, ErrType, ""},
		{"number at top", `42`, ErrType, ""},
		{"truncated", `{"brokerDatas":[{"brokerAddrs":{0:"a"`, ErrSyntax, ""},
		{"trailing garbage", `{} {}`, ErrSyntax, "unexpected data after the value"},
		{"non-numeric broker id", `{"brokerDatas":[{"brokerAddrs":{"x":"a"}}]}`, ErrType, "brokerDatas[0].brokerAddrs.x"},
		{"broker id out of range", `{"brokerDatas":[{"brokerAddrs":{99999999999999999999:"a"}}]}`, ErrRange, ""},
		{"perm not integer", `{"queueDatas":[{"perm":"six"}]}`, ErrType, "queueDatas[0].perm"},
		{"perm object", `{"queueDatas":[{"perm":{}}]}`, ErrType, "want integer, got object"},
		{"perm overflows int", `{"queueDatas":[{"perm":2147483648}]}`, ErrRange, ""},
		{"perm boolean", `{"queueDatas":[{"perm":true}]}`, ErrType, ""},
		{"queueDatas object", `{"queueDatas":{}}`, ErrType, "queueDatas: wrong JSON type: want array, got object"},
		{"brokerName array", `{"brokerDatas":[{"brokerName":[]}]}`, ErrType, ""},
		{"enableActingMaster word", `{"brokerDatas":[{"enableActingMaster":"yes"}]}`, ErrType, ""},
		{"missing colon", `{"a" 1}`, ErrSyntax, ""},
		{"missing comma", `{"a":1 "b":2}`, ErrSyntax, ""},
		{"bad literal", `{"a":tru}`, ErrSyntax, ""},
		{"unterminated string", `{"orderTopicConf":"abc}`, ErrSyntax, "unterminated string"},
		{"bad unicode escape", `{"orderTopicConf":"\u12G4"}`, ErrSyntax, ""},
		{"bare value", `{"orderTopicConf":abc}`, ErrSyntax, ""},
		{"ref not alone is an ordinary key", `{"filterServerTable":{"$ref":"x","a":[]}}`, ErrType, "filterServerTable.$ref"},
		{"too deep", `{"x":` + strings.Repeat("[", 80) + strings.Repeat("]", 80) + `}`, ErrTooDeep, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeTopicRouteData([]byte(tc.in))
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if got != nil {
				t.Fatalf("got a route %+v with an error", got)
			}
			if !strings.HasPrefix(err.Error(), "body: decode TopicRouteData: ") || !strings.Contains(err.Error(), tc.errText) {
				t.Fatalf("error text %q lacks %q", err, tc.errText)
			}
		})
	}
}

func BenchmarkEncodeRoute(b *testing.B) {
	r := twoGroupRoute()
	for _, m := range []Mode{Default, Standard} {
		b.Run(m.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = EncodeRoute(r, m)
			}
		})
	}
}

func BenchmarkAppendRoute(b *testing.B) {
	r := twoGroupRoute()
	buf := make([]byte, 0, 1024)
	for _, m := range []Mode{Default, Standard} {
		b.Run(m.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf = AppendRoute(buf[:0], r, m)
			}
		})
	}
}

func BenchmarkDecodeTopicRouteData(b *testing.B) {
	body := EncodeRoute(twoGroupRoute(), Standard)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeTopicRouteData(body); err != nil {
			b.Fatal(err)
		}
	}
}
