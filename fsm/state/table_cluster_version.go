package state

import "github.com/raftns/raftns/internal/buildinfo"

// recClusterVersion is the snapshot record of the raised cluster version
// (clusterVersionRecord), written only once the version was raised, so
// that older releases refuse it.
const recClusterVersion uint8 = 14

// clusterVersionRecord is the recClusterVersion snapshot record; a
// release that predates it refuses the snapshot, as it must.
type clusterVersionRecord struct {
	Version string
}

// clusterVersionTable holds the raised cluster version ("" until then;
// cluster_version.go).
type clusterVersionTable struct{ v string }

var clusterVersionSlot = slotOf[*clusterVersionTable]()

// clusterVer is the raised cluster version of s, "" until it was raised.
func (s *State) clusterVer() *string { return &s.tables[clusterVersionSlot].(*clusterVersionTable).v }

func newClusterVersion() table { return &clusterVersionTable{} }

func (t *clusterVersionTable) thaw() table { return &clusterVersionTable{v: t.v} }

func (t *clusterVersionTable) walk(emit emitFunc) error {
	if t.v == "" {
		return nil
	}
	return emit(recClusterVersion, &clusterVersionRecord{Version: t.v})
}

func (t *clusterVersionTable) restore(_ *restorer, _ uint8, payload []byte) error {
	r, err := decode[clusterVersionRecord](payload)
	if err != nil {
		return err
	}
	if t.v != "" {
		return duplicate("cluster version", r.Version)
	}
	if _, err := buildinfo.Parse(r.Version); err != nil || r.Version == "" {
		return errBadClusterVersion
	}
	t.v = r.Version
	return nil
}
