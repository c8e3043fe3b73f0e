package body

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/raftns/raftns/fsm"
)

// dedupeTopicsByIndex is dedupeTopics without its scan for short lists,
// the model the scan is held to.
func dedupeTopicsByIndex(list []fsm.TopicConfig) []fsm.TopicConfig {
	var out []fsm.TopicConfig
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
		unique := make([]fsm.TopicConfig, n)
		for i := range unique {
			unique[i] = fsm.TopicConfig{TopicName: fmt.Sprintf("T%d", i), Perm: 6}
		}
		lists := [][]fsm.TopicConfig{unique}
		for _, at := range []int{0, n / 2, n - 1} {
			if n < 2 {
				break
			}
			// The topic at position at repeats at the end, under n-1 others.
			rep := append(append([]fsm.TopicConfig(nil), unique[:n-1]...), fsm.TopicConfig{TopicName: unique[at].TopicName, Perm: 2})
			lists = append(lists, rep)
		}
		for i, list := range lists {
			got, want := dedupeTopics(append([]fsm.TopicConfig(nil), list...)), dedupeTopicsByIndex(list)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("n=%d list %d: got %v\nwant %v", n, i, got, want)
			}
		}
	}
}
