package state

import (
	"errors"

	"github.com/raftns/raftns/internal/buildinfo"
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

// ApplySetClusterVersion raises the version; an older, equal or
// malformed one changes nothing.
func (s *State) ApplySetClusterVersion(c *SetClusterVersion) bool {
	v, err := buildinfo.Parse(c.Version)
	if err != nil || c.Version == "" || !s.ClusterVersion().Less(v) {
		return false
	}
	*s.clusterVer() = v.String()
	return true
}

// ClusterVersion is the raised version, or the baseline.
func (s *State) ClusterVersion() buildinfo.Version {
	v, err := buildinfo.Parse(*s.clusterVer())
	if err != nil {
		return buildinfo.MustParse(buildinfo.Baseline)
	}
	return v
}
