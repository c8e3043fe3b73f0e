package state

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

// Bounds of one query.
const (
	// MaxAuditPage is the most records one query returns.
	MaxAuditPage = 1000
	// MaxAuditScan is the most records one query examines: a query whose
	// filters match few records of a large trail stops there and says
	// where to go on (AuditPage.Next), so every query takes a bounded
	// time whatever the trail holds.
	MaxAuditScan = 100_000
)

// AuditPage is an answer: the records in ascending index order and
// whether more matching records may lie beyond them in the direction read.
type AuditPage struct {
	Records []AuditRecord
	More    bool
	// Next, when More, is where the next page starts: pass it as After
	// when paging forward, as Before when paging backward.
	Next uint64
	// Total is the number of records the trail holds, matching or not.
	Total int
}

// Query answers q examining at most budget records.
func (v *AuditView) Query(q AuditQuery, budget int) AuditPage {
	limit := q.Limit
	if limit <= 0 || limit > MaxAuditPage {
		limit = MaxAuditPage
	}
	page := AuditPage{Total: v.Total()}
	if q.Kind != "" && v.Count(q.Kind) == 0 {
		return page // no record of that kind: nothing to scan
	}
	forward := q.After != 0
	c := v.from(forward, q.Before)
	if forward {
		c = v.from(true, q.After)
	}
	var last uint64
	c.walk(func(r *AuditRecord) bool {
		if budget == 0 {
			page.More, page.Next = true, last
			return false
		}
		budget--
		if q.matches(r) {
			if len(page.Records) == limit {
				page.More, page.Next = true, last
				return false
			}
			page.Records = append(page.Records, *r)
		}
		last = r.Index
		return true
	})
	if !forward {
		for i, j := 0, len(page.Records)-1; i < j; i, j = i+1, j-1 {
			page.Records[i], page.Records[j] = page.Records[j], page.Records[i]
		}
	}
	return page
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
