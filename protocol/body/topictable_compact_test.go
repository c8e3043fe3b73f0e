package body

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// generalTopicTable reads table with the general lexer alone.
func generalTopicTable(table []byte) ([]state.TopicConfig, error) {
	l, err := newLexer(table)
	if err != nil {
		return nil, err
	}
	configs, err := readTopicConfigObject(l)
	if err == nil {
		err = l.finish()
	}
	return configs, err
}

// checkCompactAgreesWithGeneral fails if the compact scan reads the start
// of table other than the general lexer does; it reports whether the
// compact scan read it.
func checkCompactAgreesWithGeneral(t *testing.T, table []byte) bool {
	t.Helper()
	got, n, ok := scanCompactTopicTable(table)
	if !ok {
		return false
	}
	want, err := generalTopicTable(table[:n])
	if err != nil {
		t.Fatalf("compact scan read %q as %+v; the general lexer fails: %v", table[:n], got, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\ncompact %+v\ngeneral %+v", table[:n], got, want)
	}
	return true
}

func TestCompactTopicTable_ReadsWhatTheGeneralLexerReads(t *testing.T) {
	cfg := func(extra string) string {
		return `{"attributes":{},"order":false,"perm":6,"readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":8` + extra + `}`
	}
	for _, tc := range []struct {
		name    string
		table   string
		compact bool
	}{
		{"empty", `{}`, true},
		{"broker output", `{"T":` + cfg("") + `}`, true},
		{"defaults for missing fields", `{"T":{"topicName":"T"}}`, true},
		{"negative and large numbers", `{"T":{"topicName":"T","perm":-2147483648,"topicSysFlag":2147483647}}`, true},
		{"attributes kept out", `{"T":{"attributes":{"+message.type":"FIFO","n":1,"b":true},"topicName":"T"}}`, true},
		{"repeated key keeps first place, last value", `{"A":{"topicName":"A","perm":2},"B":{"topicName":"B"},"A":{"topicName":"A","perm":4}}`, true},
		{"trailing comma in a config", `{"T":{"topicName":"T",}}`, true},
		{"more topics than the scan for repeats covers, one repeated", manyTopics(20, 7), true},
		{"name other than the key", `{"T":{"topicName":"U"}}`, false},
		{"no name", `{"T":{"perm":6}}`, false},
		{"empty name", `{"":{"topicName":""}}`, false},
		{"leading $ref", `{"$ref":{"topicName":"$ref"}}`, false},
		{"whitespace", `{ "T":{"topicName":"T"}}`, false},
		{"escaped key", `{"T\u0031":{"topicName":"T1"}}`, false},
		{"non-ASCII name", `{"É":{"topicName":"É"}}`, false},
		{"quoted number", `{"T":{"topicName":"T","perm":"6"}}`, false},
		{"null number", `{"T":{"topicName":"T","perm":null}}`, false},
		{"out of int32", `{"T":{"topicName":"T","perm":2147483648}}`, false},
		{"fraction", `{"T":{"topicName":"T","perm":6.0}}`, false},
		{"nested attribute", `{"T":{"topicName":"T","attributes":{"a":{}}}}`, false},
		{"single quotes", `{'T':{"topicName":"T"}}`, false},
		{"unquoted key", `{T:{"topicName":"T"}}`, false},
		{"truncated", `{"T":{"topicName":"T"`, false},
		{"trailing comma in the table", `{"T":{"topicName":"T"},}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkCompactAgreesWithGeneral(t, []byte(tc.table)); got != tc.compact {
				t.Fatalf("compact scan read %s: %v, want %v", tc.table, got, tc.compact)
			}
		})
	}
}

// manyTopics is a compact table of n topics, topic repeat written again
// at the end with other permissions.
func manyTopics(n, repeat int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"t%d":{"topicName":"t%d","perm":6},`, i, i)
	}
	fmt.Fprintf(&b, `"t%d":{"topicName":"t%d","perm":2}}`, repeat, repeat)
	return b.String()
}

// TestCompactTopicTable_JavaBodiesTakeTheCompactPath checks that the plain
// bodies recorded from Java brokers are in the shape the compact scan
// reads, so that real registrations are decoded the fast way.
func TestCompactTopicTable_JavaBodiesTakeTheCompactPath(t *testing.T) {
	const key = `"topicConfigTable":`
	for _, name := range []string{"register_r49.json", "register_r5.json", "register_legacy.json"} {
		b, err := os.ReadFile(filepath.Join(goldenDir, name))
		if err != nil {
			t.Fatal(err)
		}
		at := bytes.Index(b, []byte(key))
		if at < 0 {
			t.Fatalf("%s has no topic table", name)
		}
		table := b[at+len(key):]
		if !checkCompactAgreesWithGeneral(t, table) {
			t.Fatalf("%s: the compact scan gave up on %.80s", name, table)
		}
	}
}

// TestCompactTopicTable_DecodeFallsBackUnchanged decodes bodies whose table
// the compact scan refuses and checks the general reader's verdict stands,
// errors included.
func TestCompactTopicTable_DecodeFallsBackUnchanged(t *testing.T) {
	body := func(table string) []byte {
		return []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":` + table + `}}`)
	}
	rb, err := DecodeRegisterBody(body(`{"T":{"topicName":"U"}}`), false, 479)
	if err != nil || len(rb.TopicConfigs) != 1 || rb.TopicConfigs[0].TopicName != "U" {
		t.Fatalf("a config named other than its key: %+v, %v; want topic U", rb, err)
	}
	if _, err := DecodeRegisterBody(body(`{"T":{"perm":6}}`), false, 479); err == nil || !strings.Contains(err.Error(), "without topicName") {
		t.Fatalf("a config without a name: %v, want the general reader's error", err)
	}
	rb, err = DecodeRegisterBody(body(`{"$ref":{"topicName":"$ref"}}`), false, 479)
	if err != nil || rb.TopicConfigs != nil {
		t.Fatalf(`a table whose only key is "$ref": %+v, %v; want it empty`, rb, err)
	}
}

func FuzzCompactTopicTable(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"T":{"attributes":{},"order":false,"perm":6,"readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":8}}`,
		`{"A":{"topicName":"A","perm":2},"B":{"topicName":"B"},"A":{"topicName":"A","perm":4}}`,
		`{"T":{"attributes":{"a":"b","c":-1,"d":null},"topicName":"T",}}`,
		`{"$ref":{"topicName":"$ref"}}`,
		`{"T":{"topicName":"T","perm":-0}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, table []byte) {
		checkCompactAgreesWithGeneral(t, table)
	})
}
