package state

import (
	"slices"
	"unicode/utf8"

	"github.com/raftns/raftns/internal/feature"
)

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

// appendAudit appends rec, applies the stamp's bounds and returns the
// record as kept. Each class is bounded on its own: the count bound
// (classLimit) within the class, the age bound in every class, always
// keeping the new record.
func (s *State) appendAudit(rec AuditRecord, st *AuditStamp) AuditRecord {
	if s.audit().owner != s.version {
		s.audit().owner = s.version
		for c := range s.audit().classes {
			s.audit().classes[c] = slices.Clip(s.audit().classes[c])
		}
	}
	rec = boundRecord(rec)
	cls := classOf(&rec)
	s.audit().classes[cls] = append(s.audit().classes[cls], rec)
	s.audit().kinds[kindSlot(rec.Kind)]++
	classed := !s.ClusterVersion().Less(feature.AuditClasses.Since)
	for c := range s.audit().classes {
		recs := s.audit().classes[c]
		keep := 0
		if auditClass(c) == cls {
			keep = 1
		}
		drop := 0
		if classed {
			drop = max(0, len(recs)-classLimit(auditClass(c), st.MaxRecords))
		}
		if st.MaxAgeMillis > 0 {
			oldest := st.Millis - st.MaxAgeMillis
			for drop < len(recs)-keep && recs[drop].Millis < oldest {
				drop++
			}
		}
		for i := range drop {
			s.audit().kinds[kindSlot(recs[i].Kind)]--
		}
		s.audit().classes[c] = recs[drop:]
	}
	if !classed {
		s.dropOldestAudit(st.MaxRecords)
	}
	return rec
}

// dropOldestAudit keeps the maxRecords newest records over every class:
// the single bound of a cluster below feature.AuditClasses.
func (s *State) dropOldestAudit(maxRecords int) {
	total := 0
	for _, recs := range s.audit().classes {
		total += len(recs)
	}
	for ; total > max(1, maxRecords); total-- {
		oldest := -1
		for c, recs := range s.audit().classes {
			if len(recs) > 0 && (oldest < 0 || recs[0].Index < s.audit().classes[oldest][0].Index) {
				oldest = c
			}
		}
		s.audit().kinds[kindSlot(s.audit().classes[oldest][0].Kind)]--
		s.audit().classes[oldest] = s.audit().classes[oldest][1:]
	}
}

// boundRecord truncates every field of rec to its bound.
func boundRecord(rec AuditRecord) AuditRecord {
	for _, f := range []*string{&rec.Who, &rec.From, &rec.Via, &rec.Kind, &rec.Cluster, &rec.Broker, &rec.Topic, &rec.Outcome} {
		*f = truncate(*f, maxAuditField)
	}
	rec.Detail = truncate(rec.Detail, maxAuditDetail)
	return rec
}

// AuditEntry appends the record of an applied audited entry: what its
// command was about (described before it was applied, so an expiry still
// names its brokers) and what applying it gave. It returns the record as
// kept.
func (s *State) AuditEntry(index uint64, st *AuditStamp, subject AuditRecord, res any, changed bool) AuditRecord {
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
	return s.appendAudit(rec, st)
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

// AuditStamp is what the member that takes a change stamps on its entry
// (docs/contributors/design.md, "What is replicated and what is not"): when, who, from
// where, through which member, and how long the trail is kept. The FSM
// reads no clock and has no configuration of its own, so everything the
// record and the trail's bounds depend on travels in the entry, and every
// member keeps the same trail.
type AuditStamp struct {
	// Millis is the wall clock of the member that took the change.
	Millis int64
	// Who is the caller: an ACL access key, "admin-token", "anonymous",
	// or "raftns" for a change the leader decided itself.
	Who string
	// From is the caller's address (the PROXY-protocol address when the
	// connection carried one); empty for the leader's own decisions.
	From string
	// Via is the id of the member that took the change.
	Via string
	// MaxRecords and MaxAgeMillis bound the trail once this entry's record
	// is appended: the oldest records beyond MaxRecords, and those older
	// than Millis-MaxAgeMillis (0: no age bound), are dropped.
	MaxRecords   int
	MaxAgeMillis int64
}

// RecordAudit is the record of such a change: its Kind, Cluster, Broker,
// Topic, Detail and Outcome. The index and the stamp's fields come from
// the entry, whatever Record says of them.
type RecordAudit struct{ Record AuditRecord }

// truncate cuts s to at most n bytes at a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Bounds of an audit stamp and of the trail it asks for.
const (
	// MaxAuditRecords is the largest trail a stamp may ask for.
	MaxAuditRecords = 1_000_000
	// MaxAuditStampField bounds a stamp's Who, From and Via.
	MaxAuditStampField = 256
)
