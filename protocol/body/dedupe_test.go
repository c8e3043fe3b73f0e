package body

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// dedupeTopicsByIndex is dedupeTopics without its scan for short lists,
// the model the scan is held to.
func dedupeTopicsByIndex(list []state.TopicConfig) []state.TopicConfig {
	var out []state.TopicConfig
	index := map[string]int{}
	for _, tc := range list {
		out = putAt(out, index, tc.TopicName, tc)
	}
	return out
}

// Short lists are scanned, long ones indexed; either way a repeated
// topicName keeps its first position and its last value, wherever the
// repeat is.
func TestDedupeTopics_ShortAndLongListsAlike(t *testing.T) {
	for _, n := range []int{0, 1, 2, dedupeScanMax - 1, dedupeScanMax, dedupeScanMax + 1, 3 * dedupeScanMax} {
		unique := make([]state.TopicConfig, n)
		for i := range unique {
			unique[i] = state.TopicConfig{TopicName: fmt.Sprintf("T%d", i), Perm: 6}
		}
		lists := [][]state.TopicConfig{unique}
		for _, at := range []int{0, n / 2, n - 1} {
			if n < 2 {
				break
			}
			// The topic at position at repeats at the end, under n-1 others.
			rep := append(append([]state.TopicConfig(nil), unique[:n-1]...), state.TopicConfig{TopicName: unique[at].TopicName, Perm: 2})
			lists = append(lists, rep)
		}
		for i, list := range lists {
			got, want := dedupeTopics(append([]state.TopicConfig(nil), list...)), dedupeTopicsByIndex(list)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("n=%d list %d: got %v\nwant %v", n, i, got, want)
			}
		}
	}
}

// topicTableModel is what the topic table decodes to by the rules of
// DecodeRegisterBody (a repeated key keeps its first position and last
// value; then a repeated topicName likewise), computed with maps.
func topicTableModel(keys []string, configs []state.TopicConfig) []state.TopicConfig {
	var byKey []state.TopicConfig
	index := map[string]int{}
	for i, key := range keys {
		byKey = putAt(byKey, index, key, configs[i])
	}
	return dedupeTopicsByIndex(byKey)
}

// Topic tables whose keys are their topic names (the list is its own
// index), with repeated keys, with keys that are not the topic name from
// some point on, and longer than the scan: all decode as the maps say.
func TestTopicTable_DecodesAsTheModel(t *testing.T) {
	r := rand.New(rand.NewSource(40))
	for i := range 400 {
		n := []int{0, 1, 2, 5, dedupeScanMax - 1, dedupeScanMax, dedupeScanMax + 1, 150}[r.Intn(8)]
		mode := r.Intn(4)
		var keys []string
		var configs []state.TopicConfig
		var js strings.Builder
		js.WriteString(`{"topicConfigSerializeWrapper":{"topicConfigTable":{`)
		for j := range n {
			name := fmt.Sprintf("T%d", r.Intn(n+1)) // repeats now and then
			key := name
			if mode == 1 && j > n/2 || mode == 2 && r.Intn(8) == 0 {
				key = fmt.Sprintf("K%d", r.Intn(n+1))
			}
			perm := int32(r.Intn(8))
			keys = append(keys, key)
			configs = append(configs, state.TopicConfig{TopicName: name, ReadQueueNums: 16, WriteQueueNums: 16, Perm: perm})
			if j > 0 {
				js.WriteByte(',')
			}
			fmt.Fprintf(&js, `%q:{"topicName":%q,"perm":%d}`, key, name, perm)
		}
		js.WriteString(`}}}`)
		got, err := DecodeRegisterBody([]byte(js.String()), false, 479)
		if err != nil {
			t.Fatalf("table %d: %v", i, err)
		}
		if want := topicTableModel(keys, configs); !reflect.DeepEqual(got.TopicConfigs, want) {
			t.Fatalf("table %d (%s): got %v\nwant %v", i, js.String(), got.TopicConfigs, want)
		}
	}
}
