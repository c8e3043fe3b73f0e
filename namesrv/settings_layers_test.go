package namesrv

import (
	"testing"

	"github.com/raftns/raftns/internal/adminapi"
)

// TestSettings_ClusterValueWinsOverTheMembersOwn: a member's own value (its
// file or a flag such as --order-message-enable) is served until the
// cluster holds one; then the cluster's is, for run-time keys only, and the
// member's own comes back only if the cluster holds none (a restore of a
// snapshot without settings).
func TestSettings_ClusterValueWinsOverTheMembersOwn(t *testing.T) {
	s := NewSettings(map[string]string{PropOrderMessageEnable: "true", "dataDir": "/own", "extra": "mine"}, nil, "dataDir")
	changes := 0
	s.OnChange(func() { changes++ })
	if !s.Bool(PropOrderMessageEnable, false) || s.ClusterHeld() {
		t.Fatal("the member's own value is not served before the cluster holds one")
	}
	s.SetCluster(map[string]string{PropOrderMessageEnable: "false", "dataDir": "/cluster", "unknownKey": "kept"}, true)
	props := s.Properties()
	if s.Bool(PropOrderMessageEnable, true) || props["dataDir"] != "/own" || props["unknownKey"] != "kept" || props["extra"] != "mine" {
		t.Fatalf("with cluster values: %v", props)
	}
	if order, _ := s.routeFlags(); order {
		t.Fatal("routes still use the member's own orderMessageEnable")
	}
	if rt := s.Runtime(); rt["dataDir"] != "" || rt[PropOrderMessageEnable] != "true" {
		t.Fatalf("the member's own run-time values = %v", rt)
	}
	// A member-local update path no longer shows while the cluster holds the key.
	if err := s.Update(map[string]string{PropOrderMessageEnable: "true"}); err != nil || s.Bool(PropOrderMessageEnable, true) {
		t.Fatalf("a member-local update overrode the cluster's value: %v", err)
	}
	kinds := map[string]adminapi.Setting{}
	for _, st := range s.table("namesrv") {
		kinds[st.Key] = st
	}
	if k := kinds["dataDir"]; k.Kind != adminapi.SettingMemberLocal || k.FromCluster || k.Value != "/own" {
		t.Fatalf("dataDir row = %+v", k)
	}
	if k := kinds[PropOrderMessageEnable]; k.Kind != adminapi.SettingClusterWide || !k.FromCluster || k.Value != "false" || k.Own != "true" {
		t.Fatalf("orderMessageEnable row = %+v", k)
	}
	s.SetCluster(nil, false)
	if !s.Bool(PropOrderMessageEnable, false) || s.ClusterHeld() || changes != 3 {
		t.Fatalf("after the cluster dropped its values: order %v, held %v, %d changes", s.Bool(PropOrderMessageEnable, false), s.ClusterHeld(), changes)
	}
}

// TestSettings_SecretValuesAreHiddenInTheTable: the status table never
// shows a secret-looking value.
func TestSettings_SecretValuesAreHiddenInTheTable(t *testing.T) {
	s := NewSettings(map[string]string{"secretKey": "s3cr3t"}, nil)
	for _, st := range s.table("namesrv") {
		if st.Value == "s3cr3t" || st.Own == "s3cr3t" {
			t.Fatalf("row %+v shows the secret", st)
		}
	}
}
