package fsm

import (
	"fmt"

	"github.com/raftns/raftns/fsm/state"

	"github.com/raftns/raftns/internal/feature"
)

// auditType marks an audited entry: the byte is followed by the msgpack
// AuditStamp and then by the command's own entry (versioned, compressed or
// plain). It is an envelope, like requestType, not a command. WithAudit
// puts it inside a versioned envelope of feature.AuditTrail, so a member
// without it names the release it needs; a request-id envelope, when
// present, comes first.
const auditType CommandType = 17

// validateStamp refuses a stamp whose fields are too long or whose bounds are
// out of range; the leader decodes every forwarded entry, so such a stamp
// never reaches the log.
func validateStamp(st *state.AuditStamp) error {
	switch {
	case len(st.Who) > state.MaxAuditStampField || len(st.From) > state.MaxAuditStampField || len(st.Via) > state.MaxAuditStampField:
		return fmt.Errorf("%w: audit stamp field longer than %d bytes", ErrDecodeCommand, state.MaxAuditStampField)
	case st.MaxRecords < 1 || st.MaxRecords > state.MaxAuditRecords:
		return fmt.Errorf("%w: audit stamp keeps %d records, not 1..%d", ErrDecodeCommand, st.MaxRecords, state.MaxAuditRecords)
	case st.MaxAgeMillis < 0:
		return fmt.Errorf("%w: audit stamp with a negative age bound", ErrDecodeCommand)
	}
	return nil
}

// WithAudit wraps an encoded entry (Encode's output, before WithRequestID)
// with stamp. Only entries of audited commands (IsAudited) are wrapped, and
// only while the cluster gate allows feature.AuditTrail.
func WithAudit(stamp state.AuditStamp, entry []byte) ([]byte, error) {
	if err := validateStamp(&stamp); err != nil {
		return nil, err
	}
	t, err := EntryType(entry)
	if err != nil {
		return nil, err
	}
	if !IsAudited(t) || len(entry) == 0 || CommandType(entry[0]) == requestType {
		return nil, fmt.Errorf("fsm: %s entries are not audited, or the entry is identified already", t)
	}
	hdr, err := state.EncodeMsgpack(&stamp)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 1+len(hdr)+len(entry))
	out = append(append(append(out, byte(auditType)), hdr...), entry...)
	return wrapVersioned(feature.AuditTrail, out), nil
}

// splitAudit strips an audit envelope from buf (after the versioned one):
// the stamp (nil without an envelope) and the entry inside, which may carry
// a versioned envelope of its own.
func splitAudit(buf []byte) (*state.AuditStamp, []byte, error) {
	if len(buf) == 0 || CommandType(buf[0]) != auditType {
		return nil, buf, nil
	}
	var st state.AuditStamp
	n, err := state.DecodeMsgpackPrefix(buf[1:], &st)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: audit stamp: %v", ErrDecodeCommand, err)
	}
	if err := validateStamp(&st); err != nil {
		return nil, nil, err
	}
	inner := buf[1+n:]
	if len(inner) == 0 {
		return nil, nil, fmt.Errorf("%w: audited entry without a command", ErrDecodeCommand)
	}
	switch CommandType(inner[0]) {
	case requestType, auditType:
		return nil, nil, fmt.Errorf("%w: audited entry wraps another envelope", ErrDecodeCommand)
	}
	return &st, inner, nil
}

// IsAudited reports whether entries of command type t carry an audit stamp
// when the trail is on: the changes operators and the leader make, not a
// broker's own registration cycle.
func IsAudited(t CommandType) bool {
	switch t &^ IgnoreUnknownTypeFlag {
	case WipeWritePermType, AddWritePermType, DeleteTopicType, RegisterTopicType, PutKVType, DeleteKVType,
		ExpireBrokersType, ApplyBrokerIDType, ElectMasterType, RecordAuditType, SetSettingsType:
		return true
	}
	return false
}

// RecordAuditType records a change that is not a command of its own: a
// membership change, a leadership transfer, a snapshot restore, a member's
// configuration update. The member that took the change proposes it once
// the change is done, with its outcome.
const RecordAuditType CommandType = 16

// splitAuditVersioned is splitAudit followed by the inner entry's own
// versioned envelope, which carries no more than the command table says.
func splitAuditVersioned(buf []byte) (*state.AuditStamp, []byte, error) {
	st, inner, err := splitAudit(buf)
	if err != nil || st == nil {
		return st, inner, err
	}
	if _, inner, err = splitVersioned(inner); err != nil {
		return nil, nil, err
	}
	if len(inner) == 0 {
		return nil, nil, fmt.Errorf("%w: audited entry without a command", ErrDecodeCommand)
	}
	switch CommandType(inner[0]) {
	case requestType, auditType, versionedType:
		return nil, nil, fmt.Errorf("%w: audited entry wraps another envelope", ErrDecodeCommand)
	}
	return st, inner, nil
}

// applyRecordAudit changes nothing but the trail, which the audit envelope
// around it writes; without one there is no stamp and nothing is kept.
func applyRecordAudit(_ *FSM, _ *state.State, _ *state.RecordAudit, _ uint64) bool { return true }
