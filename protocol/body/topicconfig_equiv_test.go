package body

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// readTopicConfigByName is the general form of readTopicConfig: every
// property name made a string by object and matched as one. readTopicConfig
// matches names as bytes and must read everything exactly as this does.
func readTopicConfigByName(l *lexer) (state.TopicConfig, error) {
	tc := state.TopicConfig{ReadQueueNums: defaultQueueNums, WriteQueueNums: defaultQueueNums, Perm: defaultPerm}
	err := l.object(func(key string) error {
		var err error
		switch key {
		case "topicName":
			tc.TopicName, err = l.str()
		case "readQueueNums":
			tc.ReadQueueNums, err = l.int32v(defaultQueueNums)
		case "writeQueueNums":
			tc.WriteQueueNums, err = l.int32v(defaultQueueNums)
		case "perm":
			tc.Perm, err = l.int32v(defaultPerm)
		case "topicSysFlag":
			tc.TopicSysFlag, err = l.int32v(0)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
	if err == nil && tc.TopicName == "" {
		err = fmt.Errorf("%w: topic config without topicName", ErrInvalid)
	}
	return tc, err
}

// topicConfigOutcome is what reading one topic config leaves behind.
type topicConfigOutcome struct {
	TC     state.TopicConfig
	Err    string
	Offset int
}

func readOutcome(data []byte, read func(*lexer) (state.TopicConfig, error)) (topicConfigOutcome, bool) {
	l, err := newLexer(data)
	if err != nil {
		return topicConfigOutcome{}, false
	}
	tc, err := read(l)
	o := topicConfigOutcome{TC: tc, Offset: l.fj.Offset()}
	if err != nil {
		o.Err = err.Error()
	}
	return o, true
}

// checkTopicConfigEquivalence reads data both ways, under the table keys a
// registration usually has (the topic's name) and others.
func checkTopicConfigEquivalence(t *testing.T, data []byte) {
	t.Helper()
	want, ok := readOutcome(data, readTopicConfigByName)
	if !ok {
		return
	}
	for _, tableKey := range []string{"", "TopicA", "t\u00e9"} {
		got, _ := readOutcome(data, func(l *lexer) (state.TopicConfig, error) { return readTopicConfig(l, tableKey) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q under table key %q:\n got  %+v\n want %+v", data, tableKey, got, want)
		}
	}
}

// randomTopicConfigJSON writes a TopicConfig object as peers might: Java's
// properties and unknown ones in any order, repeated, with escaped or bare
// names, and values of every type, some malformed.
func randomTopicConfigJSON(rng *rand.Rand) []byte {
	names := []string{"topicName", "readQueueNums", "writeQueueNums", "perm", "topicSysFlag", "attributes",
		"order", "topicFilterType", "topicMessageType", "topicNam", "permx", "", "$ref"}
	values := []string{`"TopicA"`, `"t\u00e9"`, `'single'`, `"T\"q"`, `8`, `-1`, `"16"`, `""`, `"null"`,
		`null`, `{}`, `{"a":{"b":[1,2]}}`, `[1,,2]`, `01`, `"x\q"`}
	bad := []string{`2147483648`, `true`, `1.5`, `{`, `"unterminated`, `1e3`, `[`}
	var b strings.Builder
	b.WriteByte('{')
	if rng.Intn(5) != 0 {
		b.WriteString(`"topicName":"TopicA",`)
	}
	for i := rng.Intn(10); i > 0; i-- {
		name := names[rng.Intn(len(names))]
		switch rng.Intn(6) {
		case 0: // escaped letters read as the plain name
			if name != "" {
				name = fmt.Sprintf(`\u%04x`, name[0]) + name[1:]
			}
			fmt.Fprintf(&b, `"%s"`, name)
		case 1:
			fmt.Fprintf(&b, `'%s'`, name)
		case 2:
			b.WriteString(name) // bare, as fastjson allows
		default:
			fmt.Fprintf(&b, `"%s"`, name)
		}
		b.WriteString(":")
		if rng.Intn(8) == 0 {
			b.WriteByte(' ')
		}
		if rng.Intn(30) == 0 {
			b.WriteString(bad[rng.Intn(len(bad))])
		} else {
			b.WriteString(values[rng.Intn(len(values))])
		}
		switch rng.Intn(40) {
		case 0:
			b.WriteString(",,")
		case 1: // no separator: malformed
		default:
			b.WriteByte(',')
		}
	}
	if rng.Intn(40) != 0 {
		b.WriteByte('}')
	}
	return []byte(b.String())
}

// TestReadTopicConfig_MatchesGeneralDecoder: on random topic configs,
// readTopicConfig returns the same config, error and end offset as the
// general decoder.
func TestReadTopicConfig_MatchesGeneralDecoder(t *testing.T) {
	rng := rand.New(rand.NewSource(20261201))
	var errs, oks int
	for range 20000 {
		data := randomTopicConfigJSON(rng)
		checkTopicConfigEquivalence(t, data)
		if o, _ := readOutcome(data, readTopicConfigByName); o.Err != "" {
			errs++
		} else {
			oks++
		}
	}
	t.Logf("%d good and %d bad configs", oks, errs)
	if errs < 1000 || oks < 1000 {
		t.Fatalf("generator gave %d good and %d bad configs; want many of both", oks, errs)
	}
}

func FuzzReadTopicConfig(f *testing.F) {
	rng := rand.New(rand.NewSource(1))
	for range 20 {
		f.Add(randomTopicConfigJSON(rng))
	}
	f.Add([]byte(`{"attributes":{},"order":false,"perm":6,"readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"t0","topicSysFlag":0,"writeQueueNums":8}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkTopicConfigEquivalence(t, data) })
}
