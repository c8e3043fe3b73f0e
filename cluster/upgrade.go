package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

// ErrTooOldToJoin refuses a member whose release is older than the
// cluster version: it could not read the cluster's log.
var ErrTooOldToJoin = errors.New("cluster: release too old to join")

// ErrReleaseUnknown refuses an operator's "peers add" while the cluster
// version is raised and the member to add does not say which release it
// runs.
var ErrReleaseUnknown = errors.New("cluster: the member's release is unknown")

// ErrFinalizeRefused reports an upgrade that cannot be finalized yet: a
// member runs an older release or did not say which it runs.
var ErrFinalizeRefused = errors.New("cluster: upgrade cannot be finalized")

// Gate is the cluster-wide feature gate: Allows(f) reports whether every
// member is known to read f (feature.Feature, declared in
// internal/feature/features.go). A command the fsm table marks with a
// feature is refused by the leader while its feature is not allowed.
func (n *Node) Gate() *feature.Gate { return n.fsm.Gate() }

// FinalizeUpgrade raises the cluster version to the leader's release. It
// runs on the leader and refuses while a member of the configuration
// (voter or non-voter) does not answer or runs an older release; it
// changes nothing when the cluster version is that release already. After
// it, features up to that release are used and a member can no longer be
// downgraded below it (docs/operators/operations.md, "Upgrading").
func (n *Node) FinalizeUpgrade(ctx context.Context) (adminapi.FinalizeResult, error) {
	res, err := n.raiseClusterVersion(ctx, buildinfo.Current())
	if err == nil && res.Current != res.Previous {
		n.logger.Warn("upgrade finalized: features of this release are now used; members can no longer be downgraded below it",
			"cluster_version", res.Current, "previous", res.Previous)
	}
	return res, err
}

// raiseClusterVersion raises the cluster version to target once every
// member of the configuration answers with a release at least target.
func (n *Node) raiseClusterVersion(ctx context.Context, target buildinfo.Version) (adminapi.FinalizeResult, error) {
	res := adminapi.FinalizeResult{Previous: n.fsm.ClusterVersion().String(), Members: map[string]string{}}
	res.Current = res.Previous
	if !n.LeaderReady() {
		return res, ErrNotLeader
	}
	peers, err := n.Peers(ctx)
	if err != nil {
		return res, err
	}
	for _, p := range peers {
		if !p.Reachable {
			return res, fmt.Errorf("%w: member %s (%s) did not answer; every member must report its release", ErrFinalizeRefused, p.ID, p.Address)
		}
		v, err := buildinfo.Parse(p.Release)
		if err != nil {
			return res, fmt.Errorf("%w: member %s reports release %q: %v", ErrFinalizeRefused, p.ID, p.Release, err)
		}
		res.Members[p.ID] = v.String()
		if v.Less(target) {
			return res, fmt.Errorf("%w: member %s runs release %s; upgrade it to %s or newer first", ErrFinalizeRefused, p.ID, v, target)
		}
	}
	if !n.fsm.ClusterVersion().Less(target) {
		return res, nil
	}
	if _, err := n.ApplyLeaderOnly(ctx, fsm.SetClusterVersionType, &state.SetClusterVersion{Version: target.String()}); err != nil {
		return res, err
	}
	res.Current = n.fsm.ClusterVersion().String()
	return res, nil
}

// admits refuses a starting member's request to join when its release is
// older than the cluster version.
func (n *Node) admits(args *JoinArgs) error {
	v, err := buildinfo.Parse(args.Release)
	if err != nil {
		return fmt.Errorf("%w: member %s reports release %q: %v", ErrTooOldToJoin, args.ID, args.Release, err)
	}
	if cv := n.fsm.ClusterVersion(); v.Less(cv) {
		return fmt.Errorf("%w: member %s runs release %s, older than the cluster version %s; start it with release %s or newer",
			ErrTooOldToJoin, args.ID, v, cv, cv)
	}
	return nil
}

// admitsPeer refuses an operator's "peers add" of a member whose release is
// older than the cluster version, as admits does for a member that asks to
// join itself. The member is asked over the cluster port: a member waiting
// to be added (--bootstrap=false) answers. Below a raised cluster version
// every release may join, and a member already in the configuration under
// that ID and address is left to Join to report: nothing is asked.
func (n *Node) admitsPeer(ctx context.Context, id, addr string) error {
	cv := n.fsm.ClusterVersion()
	if !buildinfo.MustParse(buildinfo.Baseline).Less(cv) {
		return nil
	}
	if conf, err := currentConfiguration(n.raft); err == nil {
		if s, ok := serverOf(conf, id); ok && string(s.Address) == addr {
			return nil
		}
	}
	pctx, cancel := context.WithTimeout(ctx, statusProbeTimeout)
	st, err := n.memberStatus(pctx, addr)
	cancel()
	if err != nil {
		return fmt.Errorf("%w: member %s at %s did not answer (%v); the cluster version is %s, so a member is added only "+
			"once it runs and says its release: start it with release %s or newer, then add it", ErrReleaseUnknown, id, addr, err, cv, cv)
	}
	return n.admits(&JoinArgs{ID: id, ClusterAddr: addr, Release: st.Build.Release})
}
