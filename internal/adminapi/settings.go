package adminapi

// Kinds of a setting (Setting.Kind).
const (
	// SettingClusterWide is a run-time setting: once the cluster holds a
	// value for it, every member answers that value.
	SettingClusterWide = "cluster-wide"
	// SettingMemberLocal is read from the member's own file and flags
	// and refused over the RocketMQ protocol.
	SettingMemberLocal = "member-local"
)

// Setting is one key of a member's settings (GET /v1/status, "settings").
type Setting struct {
	// Scope is "namesrv" (GET/UPDATE_NAMESRV_CONFIG) or "controller"
	// (GET/UPDATE_CONTROLLER_CONFIG).
	Scope string `json:"scope"`
	Key   string `json:"key"`
	Kind  string `json:"kind"`
	// Value is what the member answers; Own is its own value (defaults,
	// file, flags, or what an earlier release persisted), which the
	// cluster's value replaces when FromCluster.
	Value       string `json:"value"`
	Own         string `json:"own"`
	HasOwn      bool   `json:"hasOwn"`
	FromCluster bool   `json:"fromCluster,omitempty"`
}

// MemberSettings are one member's settings, as GET /v1/config/members
// reports them for every member; Error says why a member's are missing.
type MemberSettings struct {
	ID       string    `json:"id"`
	Settings []Setting `json:"settings,omitempty"`
	Error    string    `json:"error,omitempty"`
}
