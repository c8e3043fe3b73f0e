package adminapi

import "github.com/raftns/raftns/internal/buildinfo"

// Status is a member's view of itself and of the leader (GET /v1/status).
type Status struct {
	ID               string `json:"id"`
	State            string `json:"state"`
	LeaderID         string `json:"leaderId"`
	LeaderAddr       string `json:"leaderAddr"`
	LeaderClientAddr string `json:"leaderClientAddr,omitempty"`
	LeaderHTTPAddr   string `json:"leaderHttpAddr,omitempty"`
	Ready            bool   `json:"ready"`
	ReadyReason      string `json:"readyReason,omitempty"`
	LeaderReady      bool   `json:"leaderReady"`
	Term             uint64 `json:"term"`
	CommitIndex      uint64 `json:"commitIndex"`
	// AppliedIndex is the FSM's; no-ops and barriers never reach it.
	AppliedIndex uint64 `json:"appliedIndex"`
	// RaftAppliedIndex counts every applied entry; lag is measured with it.
	RaftAppliedIndex uint64 `json:"raftAppliedIndex"`
	LastIndex        uint64 `json:"lastIndex"`
	// LastContactMillis is how long ago the leader was last heard from:
	// 0 on the leader, -1 if never.
	LastContactMillis int64  `json:"lastContactMillis"`
	ClusterAddr       string `json:"clusterAddr"`
	ClientAddr        string `json:"clientAddr"`
	HTTPAddr          string `json:"httpAddr"`
	// Zone is the member's zone label, empty when it has none.
	Zone    string `json:"zone,omitempty"`
	Brokers int    `json:"brokers"`
	Topics  int    `json:"topics"`
	// Build is the member's build. Members learn each other's through
	// this answer; a build that predates it leaves it empty, which reads
	// as buildinfo.Baseline.
	Build buildinfo.Info `json:"build"`
	// ClusterVersion is the replicated cluster version: buildinfo.Baseline
	// until an operator finalized an upgrade (docs/operators/operations.md,
	// "Upgrading").
	ClusterVersion string `json:"clusterVersion"`
	// Membership is "draining" while the member is being removed,
	// "removed" once it found it was removed from the cluster, and empty
	// otherwise.
	Membership string `json:"membership,omitempty"`
	// Configuration lists the ids of the members in this member's latest
	// Raft configuration.
	Configuration []string `json:"configuration,omitempty"`
	// Settings are the member's settings, each with its kind and its own
	// value; a build that predates them leaves them empty.
	Settings []Setting `json:"settings,omitempty"`
	// StorageID is the identity of the member's data directory; a build
	// that predates storage identities leaves it empty.
	StorageID string `json:"storageId,omitempty"`
	// Admission is empty for a member that votes, "deciding" or
	// "awaiting" for one on new storage that does not vote yet, and
	// AdmissionReason then says what it waits for.
	Admission       string `json:"admission,omitempty"`
	AdmissionReason string `json:"admissionReason,omitempty"`
}

// The values of Status.Membership.
const (
	MembershipDraining = "draining"
	MembershipRemoved  = "removed"
)

// IsLeader reports a member that is the Raft leader and has taken office
// (LeaderReady).
func (s Status) IsLeader() bool { return s.State == "Leader" && s.LeaderReady }

// The values of Status.Admission.
const (
	// AdmissionAdmitted is a member that votes: its storage is the one
	// the cluster knows.
	AdmissionAdmitted = ""
	// AdmissionDeciding is a member on new storage asking the peers it
	// names whether they hold a cluster already.
	AdmissionDeciding = "deciding"
	// AdmissionAwaiting is a member on new storage in a cluster that
	// exists: it does not vote until the leader re-admits it.
	AdmissionAwaiting = "awaiting"
)
