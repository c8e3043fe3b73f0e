package fsm

import "strings"

// AuditQuery selects audit records. Empty fields match everything.
type AuditQuery struct {
	// After, when not 0, pages forward: the oldest matching records whose
	// index is above it. Otherwise Before, when not 0, pages backward: the
	// newest matching records below it. With neither, the newest.
	After  uint64
	Before uint64
	// SinceMillis keeps records stamped at or after it.
	SinceMillis int64
	Kind        string
	Who         string
	Topic       string
	// Broker matches a record naming that broker among its Broker names.
	Broker string
	// Limit caps the records returned; 0 or above MaxAuditPage means
	// MaxAuditPage.
	Limit int
}

// MaxAuditPage is the most records one query returns.
const MaxAuditPage = 1000

// AuditPage is an answer: the records in ascending index order and
// whether more matching records lie beyond them in the direction read.
type AuditPage struct {
	Records []AuditRecord
	More    bool
	// Total is the number of records the trail holds, matching or not.
	Total int
}

// AuditRecords answers q from this member's trail.
func (f *FSM) AuditRecords(q AuditQuery) AuditPage {
	limit := q.Limit
	if limit <= 0 || limit > MaxAuditPage {
		limit = MaxAuditPage
	}
	return read(f, func(s *state) AuditPage {
		recs := s.audit.recs
		page := AuditPage{Total: len(recs)}
		if q.After != 0 {
			for i := range recs {
				if recs[i].Index > q.After && q.matches(&recs[i]) {
					if len(page.Records) == limit {
						page.More = true
						break
					}
					page.Records = append(page.Records, recs[i])
				}
			}
			return page
		}
		for i := len(recs) - 1; i >= 0; i-- {
			if (q.Before == 0 || recs[i].Index < q.Before) && q.matches(&recs[i]) {
				if len(page.Records) == limit {
					page.More = true
					break
				}
				page.Records = append(page.Records, recs[i])
			}
		}
		for i, j := 0, len(page.Records)-1; i < j; i, j = i+1, j-1 {
			page.Records[i], page.Records[j] = page.Records[j], page.Records[i]
		}
		return page
	})
}

// matches reports whether r passes q's filters.
func (q *AuditQuery) matches(r *AuditRecord) bool {
	return r.Millis >= q.SinceMillis &&
		(q.Kind == "" || r.Kind == q.Kind) &&
		(q.Who == "" || r.Who == q.Who) &&
		(q.Topic == "" || r.Topic == q.Topic) &&
		(q.Broker == "" || namesBroker(r.Broker, q.Broker))
}

// namesBroker reports whether the comma-separated list names broker.
func namesBroker(list, broker string) bool {
	for name := range strings.SplitSeq(list, ",") {
		if name == broker {
			return true
		}
	}
	return false
}

// LastAuditIndex returns the index of the newest audit record, 0 when the
// trail is empty.
func (f *FSM) LastAuditIndex() uint64 {
	return read(f, func(s *state) uint64 {
		if n := len(s.audit.recs); n > 0 {
			return s.audit.recs[n-1].Index
		}
		return 0
	})
}
