package cluster

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
)

// Admission of a member on new storage (docs/operators/operations.md, "When a member
// loses its disk"). Raft assumes a voter never forgets what it stored and
// whom it voted for; a member whose disk was lost, replaced or wiped has
// forgotten both. Were it to vote at once it could elect a member that
// lacks writes the cluster acknowledged. So a member that starts without
// Raft state, in a cluster that exists, waits: it refuses every vote
// request and never campaigns (voteGuard) until the leader has recorded
// its new storage identity (state.MemberStanding), which the leader does
// after making it a non-voter. The member applies that record only once
// it holds every entry before it, so by then it holds all it had
// acknowledged; the leader promotes it once it has caught up and stayed
// so for Config.PromoteAfter.
type admission struct {
	self   string
	id     storageIdentity
	dir    string // "" with injected stores: never persisted
	logger hclog.Logger
	stage  atomic.Value // string: adminapi.Admission*
	mu     sync.Mutex
	reason string
}

// newAdmission starts a member's admission: admitted on trusted storage;
// on new storage deciding while the member holds no Raft state (until
// formation says whether it forms a cluster or waits), awaiting once it
// holds some.
func newAdmission(self, dir string, id storageIdentity, hasState bool, logger hclog.Logger) *admission {
	a := &admission{self: self, id: id, dir: dir, logger: logger}
	switch {
	case id.Admitted:
		a.stage.Store(adminapi.AdmissionAdmitted)
	case hasState:
		a.stage.Store(adminapi.AdmissionAwaiting)
		a.reason = "a leader to re-admit it: it restarted before being re-admitted"
	default:
		a.stage.Store(adminapi.AdmissionDeciding)
		a.reason = "starting on new storage"
	}
	return a
}

// voting reports whether the member may vote and campaign.
func (a *admission) voting() bool { return a.current() == adminapi.AdmissionAdmitted }

// current is the stage: admitted, deciding or awaiting.
func (a *admission) current() string { return a.stage.Load().(string) }

// why says what the member waits for; "" once admitted.
func (a *admission) why() string {
	if a.voting() {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reason
}

// wait sets the stage (deciding or awaiting) and what it waits for,
// logging a change.
func (a *admission) wait(stage, reason string) {
	a.mu.Lock()
	changed := a.reason != reason || a.current() != stage
	a.reason = reason
	a.stage.Store(stage)
	a.mu.Unlock()
	if changed {
		a.logger.Warn("this member does not vote yet", "stage", stage, "waiting_for", reason, "storage_id", a.id.ID)
	}
}

// admit makes the member a voter-to-be: it persists the admission first,
// so that a restart keeps it.
func (a *admission) admit(why string) error {
	if a.voting() {
		return nil
	}
	if a.dir != "" {
		if err := writeStorageIdentity(a.dir, storageIdentity{ID: a.id.ID, Admitted: true}); err != nil {
			return err
		}
	}
	a.stage.Store(adminapi.AdmissionAdmitted)
	a.logger.Info("this member votes again", "why", why, "storage_id", a.id.ID)
	return nil
}

// watch admits the member once the replicated standings record its
// storage identity, and keeps saying what it waits for until then.
func (a *admission) watch(r *raft.Raft, f *fsm.FSM, stop <-chan struct{}) {
	for poll.Sleep(250*time.Millisecond, stop) {
		switch a.current() {
		case adminapi.AdmissionAdmitted:
			return
		case adminapi.AdmissionDeciding:
			continue
		}
		if st, ok := f.MemberStanding(a.self); ok && st.StorageID == a.id.ID {
			if err := a.admit("the leader recorded this member's storage identity"); err != nil {
				a.logger.Error("cannot record the admission in the data dir", "error", err)
			}
			continue
		}
		a.wait(adminapi.AdmissionAwaiting, a.awaitReason(r, f))
	}
}

// awaitReason says what a member awaiting admission waits for.
func (a *admission) awaitReason(r *raft.Raft, f *fsm.FSM) string {
	_, leader := r.LeaderWithID()
	switch {
	case leader == "":
		return "a leader; this member started on new storage and votes only once a leader re-admitted it " +
			"(if every member lost its data: raftnsctl snapshot restore, or start them with --new-cluster)"
	case !inConfiguration(r, a.self):
		return fmt.Sprintf("being added to the cluster by leader %s (raftnsctl peers add)", leader)
	case !f.Gate().Allows(feature.StorageIdentity):
		return fmt.Sprintf("the cluster version %s to reach %s (raftnsctl upgrade finalize) before leader %s can re-admit it",
			f.ClusterVersion(), feature.StorageIdentity.Since, leader)
	}
	if !a.returning(r, f) {
		return fmt.Sprintf("leader %s to record the storage identity of this new member, and this member to apply that", leader)
	}
	return fmt.Sprintf("leader %s to re-admit it by recording its storage identity, and this member to apply that", leader)
}

// returning reports whether this member, not voting yet, returns to a
// place it held in the configuration (peers.go, returning).
func (a *admission) returning(r *raft.Raft, f *fsm.FSM) bool {
	conf, err := currentConfiguration(r)
	if err != nil {
		return true
	}
	standing, _ := f.MemberStanding(a.self)
	for _, s := range conf.Servers {
		if string(s.ID) == a.self {
			return returning(s.Suffrage, standing, a.id.ID)
		}
	}
	return true
}

// loadAdmission reads the storage identity of a member on disk storage;
// a member on injected stores (in-process tests) is always admitted.
func (n *Node) loadAdmission() (*admission, error) {
	logger := n.logger.Named("admission")
	if n.stores.bolt == nil {
		return newAdmission(n.cfg.ID, "", storageIdentity{Admitted: true}, true, logger), nil
	}
	has, err := raft.HasExistingState(n.stores.logs, n.stores.stable, n.stores.snaps)
	if err != nil {
		return nil, fmt.Errorf("read raft state: %w", err)
	}
	dir := raftDir(n.cfg.DataDir)
	id, err := loadStorageIdentity(dir, has)
	if err != nil {
		return nil, err
	}
	return newAdmission(n.cfg.ID, dir, id, has, logger), nil
}

// StorageID is the identity of this member's storage.
func (n *Node) StorageID() string { return n.admission.id.ID }

// Admission is this member's admission stage (adminapi.Admission*) and,
// while it does not vote, what it waits for.
func (n *Node) Admission() (stage, reason string) { return n.admission.current(), n.admission.why() }
