package cluster

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
)

// formedVersionKey is the stable-store key under which a member that formed
// a new cluster keeps the cluster version that cluster starts at. Members
// that joined, and members formed by a release before this key, have none:
// their cluster stays at its version until an operator finalizes.
var formedVersionKey = []byte("raftns-formed-cluster-version")

// formedVersionRetryMax bounds the wait between two attempts to raise the
// cluster version of a new cluster while a member does not answer yet.
const formedVersionRetryMax = 30 * time.Second

func (c *Config) validateInitialClusterVersion() error {
	if c.InitialClusterVersion == "" {
		return nil
	}
	v, err := buildinfo.Parse(c.InitialClusterVersion)
	if err != nil {
		return fmt.Errorf("%w: initial cluster version %q: %v", ErrBadConfig, c.InitialClusterVersion, err)
	}
	if buildinfo.Current().Less(v) {
		return fmt.Errorf("%w: initial cluster version %s is newer than this release %s", ErrBadConfig, v, buildinfo.Release)
	}
	return nil
}

// initialClusterVersion is the cluster version a cluster this member forms
// starts at.
func (c *Config) initialClusterVersion() buildinfo.Version {
	if c.InitialClusterVersion == "" {
		return buildinfo.Current()
	}
	return buildinfo.MustParse(c.InitialClusterVersion)
}

// recordFormation notes, before this member forms a new cluster, the
// cluster version the cluster starts at.
func (f formation) recordFormation() error {
	if err := f.stores.stable.Set(formedVersionKey, []byte(f.cfg.initialClusterVersion().String())); err != nil {
		return fmt.Errorf("record the initial cluster version: %w", err)
	}
	return nil
}

// formedVersion returns the cluster version this member's cluster started
// at when this member formed it.
func (n *Node) formedVersion() (buildinfo.Version, bool) {
	b, err := n.stores.stable.Get(formedVersionKey)
	if err != nil || len(b) == 0 {
		return buildinfo.Version{}, false
	}
	v, err := buildinfo.Parse(string(b))
	return v, err == nil
}

// formedVersionDuty is the leader's duty, in a cluster this member formed,
// to raise the cluster version from the baseline every new cluster's log
// starts at to the version the cluster was formed at. It raises it as
// "upgrade finalize" does, once every member answers with a release at
// least that version: a member of an older release listed among the
// initial peers keeps the cluster at the baseline.
type formedVersionDuty struct {
	n          *Node
	stop, done chan struct{}
	// tries counts the attempts to raise the version.
	tries atomic.Int64
}

// TakeOffice starts the duty when there is something to raise.
func (d *formedVersionDuty) TakeOffice(o Office) {
	target, ok := d.n.formedVersion()
	if !ok || !d.n.fsm.ClusterVersion().Less(target) {
		return
	}
	d.stop, d.done = make(chan struct{}), make(chan struct{})
	go d.run(o, target, d.stop, d.done)
}

// LeaveOffice stops the duty and waits for it.
func (d *formedVersionDuty) LeaveOffice() {
	if d.stop != nil {
		close(d.stop)
		<-d.done
		d.stop, d.done = nil, nil
	}
}

func (d *formedVersionDuty) run(o Office, target buildinfo.Version, stop, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithCancel(contextUntil(stop))
	defer cancel()
	wait := time.Second
	for o.Held() && d.n.fsm.ClusterVersion().Less(target) {
		res, err := d.n.raiseClusterVersion(ctx, target)
		d.tries.Add(1)
		if err == nil {
			d.n.logger.Info("new cluster: cluster version raised to the version it was formed at",
				"cluster_version", res.Current, "previous", res.Previous)
			return
		}
		d.n.logger.Debug("new cluster: cluster version not raised yet", "target", target.String(), "error", err)
		if !poll.Sleep(wait, stop) {
			return
		}
		wait = min(2*wait, formedVersionRetryMax)
	}
}
