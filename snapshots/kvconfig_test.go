package snapshots

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestKVConfigJSON_Parse(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want map[string]map[string]string
		err  bool
	}{
		{"reference example", `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicTest":"broker-a:4;broker-b:4"}}}`,
			map[string]map[string]string{"ORDER_TOPIC_CONFIG": {"TopicTest": "broker-a:4;broker-b:4"}}, false},
		{"empty table", `{"configTable":{}}`, map[string]map[string]string{}, false},
		{"no table", `{}`, map[string]map[string]string{}, false},
		{"empty namespace kept", `{"configTable":{"NS":{}}}`, map[string]map[string]string{"NS": {}}, false},
		{"null value dropped", `{"configTable":{"NS":{"a":null,"b":"1"}}}`, map[string]map[string]string{"NS": {"b": "1"}}, false},
		{"null namespace is empty", `{"configTable":{"NS":null}}`, map[string]map[string]string{"NS": {}}, false},
		{"unknown field ignored", `{"configTable":{"NS":{"k":"v"}},"extra":1}`, map[string]map[string]string{"NS": {"k": "v"}}, false},
		{"escapes", `{"configTable":{"N\u000BS":{"k":"\u00E9\/"}}}`, map[string]map[string]string{"N\vS": {"k": "é/"}}, false},
		{"empty input", ``, nil, true},
		{"not json", `configTable=1`, nil, true},
		{"number value", `{"configTable":{"NS":{"k":1}}}`, nil, true},
		{"array table", `{"configTable":[]}`, nil, true},
		{"trailing garbage", `{"configTable":{}} x`, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseKVConfigJSON([]byte(tc.in))
			if tc.err {
				if !errors.Is(err, ErrKVConfig) {
					t.Fatalf("err = %v, want ErrKVConfig", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestKVConfigJSON_Format(t *testing.T) {
	cases := []struct {
		name string
		in   map[string]map[string]string
		want string
	}{
		{"nil", nil, `{"configTable":{}}`},
		{"reference example", map[string]map[string]string{"ORDER_TOPIC_CONFIG": {"TopicTest": "broker-a:4;broker-b:4"}},
			`{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicTest":"broker-a:4;broker-b:4"}}}`},
		{"sorted", map[string]map[string]string{"b": {"y": "2", "x": "1"}, "a": {}},
			`{"configTable":{"a":{},"b":{"x":"1","y":"2"}}}`},
		{"fastjson escaping", map[string]map[string]string{"N": {"k": "q\"b\\\b\f\n\r\t\x01\x7f\u0085\u2028é/"}},
			`{"configTable":{"N":{"k":"q\"b\\\b\f\n\r\t\u0001\u007F\u0085\u2028é/"}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(FormatKVConfigJSON(tc.in)); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestKVConfigJSON_RoundTripFixture(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "snapshots", "kvConfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	table, err := ParseKVConfigJSON(data)
	if err != nil {
		t.Fatalf("parse fixture: %v", err)
	}
	if got := table["ORDER_TOPIC_CONFIG"]["TopicOrder"]; got != "broker-a:4;broker-b:4" {
		t.Fatalf("ORDER_TOPIC_CONFIG/TopicOrder = %q", got)
	}
	again, err := ParseKVConfigJSON(FormatKVConfigJSON(table))
	if err != nil {
		t.Fatalf("parse formatted: %v", err)
	}
	if !reflect.DeepEqual(again, table) {
		t.Fatalf("round trip = %v, want %v", again, table)
	}
}
