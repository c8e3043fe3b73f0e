package fsm

import (
	"errors"
	"slices"
)

// recAudit is the snapshot record of one AuditRecord, oldest first. It is
// written only while the trail holds records, which only entries of
// feature.AuditTrail add, so the snapshots of a cluster that never turned
// the trail on are what an older release writes.
const recAudit uint8 = 16

// Audit record field bounds: a record is at most a few KiB whatever the
// command carried.
const (
	maxAuditField  = 256
	maxAuditDetail = 1024
)

// AuditRecord is one entry of the replicated audit trail: one audited log
// entry, identical on every member.
type AuditRecord struct {
	// Index is the log index of the entry; records are ordered by it.
	Index uint64
	// Millis, Who, From and Via come from the entry's AuditStamp.
	Millis int64
	Who    string
	From   string
	Via    string
	// Kind names the change (the Audit* constants).
	Kind string
	// Cluster, Broker and Topic are what the change was about, when it
	// names them; Broker may list several names, comma-separated.
	Cluster string
	Broker  string
	Topic   string
	// Detail holds the command's other essential fields; KV values are
	// shortened, and no secret is ever written here.
	Detail string
	// Outcome is "applied", "no change", or "refused: " and the reason.
	Outcome string
}

// Outcomes of an audited change.
const (
	OutcomeApplied  = "applied"
	OutcomeNoChange = "no change"
	outcomeRefused  = "refused: "
)

// auditTrail is the trail of one state version. Records are only appended
// and dropped from the front, so a frozen state's slice is never written:
// a successor's first append copies it (slices.Clip), later appends are
// amortized.
type auditTrail struct {
	owner *version
	recs  []AuditRecord
}

// appendAudit appends rec and applies the stamp's bounds.
func (s *state) appendAudit(rec AuditRecord, st *AuditStamp) {
	if s.audit.owner != s.version {
		s.audit = auditTrail{owner: s.version, recs: slices.Clip(s.audit.recs)}
	}
	rec = boundRecord(rec)
	recs := append(s.audit.recs, rec)
	drop := max(0, len(recs)-st.MaxRecords)
	if st.MaxAgeMillis > 0 {
		oldest := st.Millis - st.MaxAgeMillis
		for drop < len(recs)-1 && recs[drop].Millis < oldest {
			drop++
		}
	}
	s.audit.recs = recs[drop:]
}

// boundRecord truncates every field of rec to its bound.
func boundRecord(rec AuditRecord) AuditRecord {
	for _, f := range []*string{&rec.Who, &rec.From, &rec.Via, &rec.Kind, &rec.Cluster, &rec.Broker, &rec.Topic, &rec.Outcome} {
		*f = truncate(*f, maxAuditField)
	}
	rec.Detail = truncate(rec.Detail, maxAuditDetail)
	return rec
}

// auditEntry appends the record of an applied audited entry: what its
// command was about (described before it was applied, so an expiry still
// names its brokers) and what applying it gave.
func (s *state) auditEntry(index uint64, st *AuditStamp, subject AuditRecord, res any, changed bool) {
	rec := subject
	rec.Index, rec.Millis, rec.Who, rec.From, rec.Via = index, st.Millis, st.Who, st.From, st.Via
	if rec.Outcome == "" {
		rec.Outcome = outcomeOf(res, changed)
	}
	if rec.Detail == "" {
		rec.Detail = resultDetail(res)
	} else if d := resultDetail(res); d != "" {
		rec.Detail += " " + d
	}
	s.appendAudit(rec, st)
}

// outcomeOf says what applying a command gave.
func outcomeOf(res any, changed bool) string {
	switch r := res.(type) {
	case error:
		return outcomeRefused + r.Error()
	case ControllerResult:
		if r.Refusal != RefusalNone {
			return outcomeRefused + r.Remark
		}
	}
	if !changed {
		return OutcomeNoChange
	}
	return OutcomeApplied
}

// applyRecordAudit changes nothing but the trail, which the audit envelope
// around it writes; without one there is no stamp and nothing is kept.
func applyRecordAudit(_ *FSM, _ *state, _ *RecordAudit, _ uint64) bool { return true }

// walkAudit emits the trail, oldest first.
func (s *state) walkAudit(emit emitFunc) error {
	for i := range s.audit.recs {
		if err := emit(recAudit, &s.audit.recs[i]); err != nil {
			return err
		}
	}
	return nil
}

func (rs *restorer) auditRecord(r *AuditRecord) error {
	recs := rs.s.audit.recs
	if n := len(recs); n > 0 && recs[n-1].Index >= r.Index {
		return errors.New("audit records out of order")
	}
	if len(recs) >= MaxAuditRecords {
		return errors.New("more audit records than any trail keeps")
	}
	rs.s.audit = auditTrail{owner: rs.s.version, recs: append(recs, boundRecord(*r))}
	return nil
}
