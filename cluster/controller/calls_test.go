package controller

import (
	"slices"
	"testing"
)

// Every released request kind keeps the name of its leader call: a member
// asks the leader, which may run another release, for a call by its name.
func TestRequests_KeepTheirLeaderCallNames(t *testing.T) {
	released := []string{"AlterSyncStateSet", "ApplyBrokerID", "CleanBrokerData", "ElectMaster",
		"GetReplicaInfo", "GetSyncStateData", "NextBrokerID", "RegisterBroker"}
	var names []string
	for _, d := range declared {
		names = append(names, d.name)
	}
	for _, name := range released {
		if !slices.Contains(names, name) {
			t.Errorf("no request kind is declared as %q (declared %v)", name, names)
		}
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
