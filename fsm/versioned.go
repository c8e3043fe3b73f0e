package fsm

import (
	"fmt"

	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

// versionedType marks an entry whose command needs a feature (the command
// table's needs): the byte is followed by one length byte, the release
// that introduced the feature, and the command's own entry (plain or
// compressed). A member that does not know the inner type can then say
// which release it needs. Like requestType it is an envelope, not a
// command; a request-id envelope, when present, comes first.
const versionedType CommandType = 21

// wrapVersioned puts entry in the versioned envelope of the release f
// needs.
func wrapVersioned(f feature.Feature, entry []byte) []byte {
	since := f.Since.String()
	out := make([]byte, 0, 2+len(since)+len(entry))
	out = append(out, byte(versionedType), byte(len(since)))
	out = append(out, since...)
	return append(out, entry...)
}

// splitVersioned strips a versioned envelope from buf, returning the
// release it names ("" without an envelope) and the entry inside.
func splitVersioned(buf []byte) (release string, entry []byte, err error) {
	if len(buf) == 0 || CommandType(buf[0]) != versionedType {
		return "", buf, nil
	}
	if len(buf) < 2 || len(buf) < 2+int(buf[1])+1 {
		return "", nil, fmt.Errorf("%w: truncated versioned entry", ErrDecodeCommand)
	}
	release = string(buf[2 : 2+int(buf[1])])
	if _, err := buildinfo.Parse(release); err != nil || release == "" {
		return "", nil, fmt.Errorf("%w: versioned entry names release %q", ErrDecodeCommand, release)
	}
	return release, buf[2+int(buf[1]):], nil
}

// needs sets the feature a command needs: the leader proposes it only
// while the gate allows the feature, and its entries carry the feature's
// release in the versioned envelope.
func needs(spec commandSpec, f feature.Feature) commandSpec {
	spec.needs = f
	return spec
}

// NeededFeature returns the feature a command of type t needs; the zero
// Feature when it needs none (or t is unknown).
func NeededFeature(t CommandType) feature.Feature {
	if s := commands.lookup(t); s != nil {
		return s.needs
	}
	return feature.Feature{}
}
