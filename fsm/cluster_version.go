package fsm

import (
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

// ClusterVersion returns the cluster version: buildinfo.Baseline until
// an operator raised it.
func (f *FSM) ClusterVersion() buildinfo.Version {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.st.ClusterVersion()
}

// Gate returns the feature gate of this FSM's cluster version.
func (f *FSM) Gate() *feature.Gate { return feature.NewGate(f.ClusterVersion) }
