package fsm

import (
	"errors"

	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

// SetClusterVersion raises the cluster version (docs/operators/operations.md,
// "Upgrading"): the release every member runs at least, which the feature
// gate compares features with. The leader proposes it only when every
// member of the configuration reports that release or a newer one; it
// never lowers the version.
type SetClusterVersion struct {
	Version string
}

// errBadClusterVersion refuses a cluster-version record that is not a
// release.
var errBadClusterVersion = errors.New("cluster version is not a release")

// clusterVersionRecord is the recClusterVersion snapshot record, written
// only once the cluster version was raised; a release that predates it
// refuses the snapshot, as it must.
type clusterVersionRecord struct {
	Version string
}

// applySetClusterVersion raises the version; an older, equal or
// malformed one changes nothing.
func (s *state) applySetClusterVersion(c *SetClusterVersion) bool {
	v, err := buildinfo.Parse(c.Version)
	if err != nil || c.Version == "" || !s.clusterVersion().Less(v) {
		return false
	}
	s.clusterVer = v.String()
	return true
}

// clusterVersion is the raised version, or the baseline.
func (s *state) clusterVersion() buildinfo.Version {
	v, err := buildinfo.Parse(s.clusterVer)
	if err != nil {
		return buildinfo.MustParse(buildinfo.Baseline)
	}
	return v
}

// ClusterVersion returns the cluster version: buildinfo.Baseline until
// an operator raised it.
func (f *FSM) ClusterVersion() buildinfo.Version {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.st.clusterVersion()
}

// Gate returns the feature gate of this FSM's cluster version.
func (f *FSM) Gate() *feature.Gate { return feature.NewGate(f.ClusterVersion) }

func (s *state) walkClusterVersion(emit emitFunc) error {
	if s.clusterVer == "" {
		return nil
	}
	return emit(recClusterVersion, &clusterVersionRecord{Version: s.clusterVer})
}

func (rs *restorer) clusterVersion(r *clusterVersionRecord) error {
	if rs.s.clusterVer != "" {
		return duplicate("cluster version", r.Version)
	}
	if _, err := buildinfo.Parse(r.Version); err != nil || r.Version == "" {
		return errBadClusterVersion
	}
	rs.s.clusterVer = r.Version
	return nil
}
