package cluster

import (
	"testing"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
)

func TestStageOf_NewMembersAreNotAwaitingReadmission(t *testing.T) {
	voter := raft.Server{ID: "n1", Suffrage: raft.Voter}
	nonvoter := raft.Server{ID: "n4", Suffrage: raft.Nonvoter}
	waiting := func(storage string) adminapi.Status {
		return adminapi.Status{Admission: adminapi.AdmissionAwaiting, StorageID: storage}
	}
	admitted := adminapi.Status{Admission: adminapi.AdmissionAdmitted, StorageID: "new"}
	for _, tc := range []struct {
		name      string
		s         raft.Server
		st        adminapi.Status
		reachable bool
		standing  state.MemberStanding
		want      string
	}{
		// A member started on an empty data dir and added (peers add,
		// --bootstrap=false): it never had a vote, so before the leader
		// records its first storage identity it is not re-admitted.
		{"new non-voter kept so (peers add --non-voter)", nonvoter, waiting("new"), true, state.MemberStanding{ID: "n4", NonVoter: true}, adminapi.StageNonvoter},
		{"new member the leader will promote (peers add)", nonvoter, waiting("new"), true, state.MemberStanding{}, adminapi.StageCatchingUp},
		{"new non-voter whose identity is recorded, not applied yet", nonvoter, waiting("new"), true, state.MemberStanding{ID: "n4", StorageID: "new", NonVoter: true}, adminapi.StageNonvoter},
		// Members that held a place and returned on new storage.
		{"voter on new storage", voter, waiting("new"), true, state.MemberStanding{ID: "n1", StorageID: "old"}, adminapi.StageAwaiting},
		{"voter on new storage, none recorded", voter, waiting("new"), true, state.MemberStanding{}, adminapi.StageAwaiting},
		{"voter deciding", voter, adminapi.Status{Admission: adminapi.AdmissionDeciding}, true, state.MemberStanding{}, adminapi.StageAwaiting},
		{"non-voter kept so, on new storage", nonvoter, waiting("new"), true, state.MemberStanding{ID: "n4", StorageID: "old", NonVoter: true}, adminapi.StageAwaiting},
		{"non-voter being promoted, on new storage", nonvoter, waiting("new"), true, state.MemberStanding{ID: "n4", StorageID: "old"}, adminapi.StageAwaiting},
		// Admitted, or not answering: the suffrage's stage.
		{"voter", voter, admitted, true, state.MemberStanding{ID: "n1", StorageID: "new"}, adminapi.StageVoter},
		{"unreachable voter", voter, adminapi.Status{}, false, state.MemberStanding{ID: "n1", StorageID: "old"}, adminapi.StageVoter},
		{"non-voter kept so", nonvoter, admitted, true, state.MemberStanding{ID: "n4", StorageID: "new", NonVoter: true}, adminapi.StageNonvoter},
		{"non-voter catching up", nonvoter, admitted, true, state.MemberStanding{ID: "n4", StorageID: "new"}, adminapi.StageCatchingUp},
	} {
		if got := stageOf(tc.s, tc.st, tc.reachable, tc.standing); got != tc.want {
			t.Errorf("%s: stage %q, want %q", tc.name, got, tc.want)
		}
	}
}
