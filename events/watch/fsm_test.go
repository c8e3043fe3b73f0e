package watch

import (
	"fmt"
	"slices"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func TestChangeOf_NamesTheTopicsARegistrationOrItsDropsTouch(t *testing.T) {
	drops := &state.DropUnlistedTopics{ClusterName: "C", BrokerName: "b", Topics: []string{"T1", "T2"}}
	c := ChangeOf(7, drops)
	if c.Kinds != Route || c.AllTopics || !slices.Equal(c.Topics, drops.Topics) || !slices.Equal(c.Clusters, []string{"C"}) {
		t.Fatalf("drops: %+v", c)
	}
	if !(Filter{Topic: "T2"}).Matches(c) || (Filter{Topic: "T3"}).Matches(c) {
		t.Fatal("a watcher of a dropped topic must be told, and only of those")
	}
	for i := range maxListedTopics {
		drops.Topics = append(drops.Topics, fmt.Sprint("U", i))
	}
	if c = ChangeOf(8, drops); !c.AllTopics || c.Topics != nil {
		t.Fatalf("drops of more than %d topics: %+v, want AllTopics", maxListedTopics, c)
	}
	reg := &state.RegisterBroker{ClusterName: "C", TopicConfigs: []state.TopicConfig{{TopicName: "T1"}}}
	if c = ChangeOf(9, reg); c.Kinds != Route|Broker || c.AllTopics || !slices.Equal(c.Topics, []string{"T1"}) {
		t.Fatalf("registration: %+v", c)
	}
}
