package adminapi

// PeerStatus is one member of the Raft configuration (GET /v1/peers, a
// list), as "raftnsctl peers list" shows it.
type PeerStatus struct {
	ID       string `json:"id"`
	Address  string `json:"address"`
	Suffrage string `json:"suffrage"`
	Leader   bool   `json:"leader"`
	// Reachable is false when the member did not answer; the fields below
	// are then zero.
	Reachable    bool   `json:"reachable"`
	State        string `json:"state,omitempty"`
	Ready        bool   `json:"ready"`
	ReadyReason  string `json:"readyReason,omitempty"`
	Term         uint64 `json:"term,omitempty"`
	AppliedIndex uint64 `json:"appliedIndex"`
	// Lag is the leader's last index minus the member's Raft applied index.
	Lag               uint64 `json:"lag"`
	LastContactMillis int64  `json:"lastContactMillis"`
	ClientAddr        string `json:"clientAddr,omitempty"`
	HTTPAddr          string `json:"httpAddr,omitempty"`
	// Zone is the member's zone label: as it reports it, or as the member
	// directory lists it when it did not answer.
	Zone string `json:"zone,omitempty"`
	// Release and Commit are the member's build; a reachable member with
	// an empty Release runs a build from before versions were exchanged.
	Release string `json:"release,omitempty"`
	Commit  string `json:"commit,omitempty"`
	// Membership is "draining" while the member is being removed; it is
	// then removed DrainMillis after the drain began.
	Membership  string `json:"membership,omitempty"`
	DrainMillis int64  `json:"drainMillis,omitempty"`
	// Stage is "voter", "catching up" (a non-voter the leader promotes
	// once caught up), "non-voter" (kept so by an operator) or "awaiting
	// re-admission" (a member on new storage that does not vote yet, for
	// the reason in Waiting).
	Stage   string `json:"stage,omitempty"`
	Waiting string `json:"waiting,omitempty"`
	// StorageID is the identity of the member's data directory as it
	// reports it; RecordedStorageID the one the cluster admitted it with.
	StorageID         string `json:"storageId,omitempty"`
	RecordedStorageID string `json:"recordedStorageId,omitempty"`
}

// The values of PeerStatus.Stage.
const (
	StageVoter      = "voter"
	StageCatchingUp = "catching up"
	StageNonvoter   = "non-voter"
	StageAwaiting   = "awaiting re-admission"
)

// AddPeer is the body of POST /v1/peers: the member to add, by its ID and
// cluster address.
type AddPeer struct {
	ID      string `json:"id"`
	Address string `json:"address"`
	// NonVoter keeps the member a non-voter until promoted.
	NonVoter bool `json:"nonVoter,omitempty"`
}

// ReasonNotAnswering is the "reason" of an error answer (HTTP 409) that
// refuses POST /v1/peers because the member to add did not answer when
// asked for its release: it may still be starting, and the same request may
// succeed once it runs.
const ReasonNotAnswering = "member-not-answering"

// RemovePeer is the answer of DELETE /v1/peers/{id}.
type RemovePeer struct {
	// Result is "removed", or "draining": the member is no longer listed by
	// the address service, keeps serving for DrainMillis, and is then
	// removed by the leader.
	Result      string `json:"result"`
	DrainMillis int64  `json:"drainMillis,omitempty"`
	// Note says why a removal did not drain, when it was asked to.
	Note string `json:"note,omitempty"`
}

// The results of a removal.
const (
	RemoveResultRemoved  = "removed"
	RemoveResultDraining = "draining"
)
