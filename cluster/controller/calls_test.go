package controller

import (
	"slices"
	"testing"
)

// Every request kind keeps the name of its leader call: a member asks the
// leader, which may run another release, for a call by its name.
func TestRequests_KeepTheirLeaderCallNames(t *testing.T) {
	want := []string{"AlterSyncStateSet", "ApplyBrokerID", "CleanBrokerData", "ElectMaster",
		"GetReplicaInfo", "GetSyncStateData", "NextBrokerID", "RegisterBroker"}
	var got []string
	for _, d := range declared {
		got = append(got, d.name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("declared %v, want %v", got, want)
	}
}

// A request kind declared under a name already taken is refused, and the
// declarations stay as they were.
func TestOnLeader_RefusesANameDeclaredTwice(t *testing.T) {
	before := len(declared)
	defer func() {
		if recover() == nil {
			t.Fatal("a second ElectMaster was declared")
		}
		if len(declared) != before {
			t.Fatalf("%d declarations, want %d", len(declared), before)
		}
	}()
	onLeader("ElectMaster", (*Controller).electMaster)
}
