package state

import "sort"

// AuditView is the trail as readers see it: the record list of each
// retention class and the count of each kind. A published view is never
// written: the FSM publishes a new one after every change to the trail
// (publishAudit), and queries read the newest without the state's lock,
// so a scan of the trail never holds up Apply.
type AuditView struct {
	classes [auditClasses][]AuditRecord
	kinds   kindCounts
}

// Total is how many records the view holds.
func (v *AuditView) Total() int {
	n := 0
	for _, recs := range v.classes {
		n += len(recs)
	}
	return n
}

// LastIndex is the index of the newest record, 0 when the view is empty.
func (v *AuditView) LastIndex() uint64 {
	var last uint64
	for _, recs := range v.classes {
		if n := len(recs); n > 0 {
			last = max(last, recs[n-1].Index)
		}
	}
	return last
}

// cursor walks a view's classes merged by index, one direction.
type cursor struct {
	v       *AuditView
	forward bool
	// pos is, per class, the next record's position going forward, or
	// one past it going backward.
	pos [auditClasses]int
}

// from returns a cursor over the records above after (forward), or below
// before (backward; 0: from the newest).
func (v *AuditView) from(forward bool, bound uint64) *cursor {
	c := &cursor{v: v, forward: forward}
	for i, recs := range v.classes {
		switch {
		case forward:
			c.pos[i] = sort.Search(len(recs), func(j int) bool { return recs[j].Index > bound })
		case bound == 0:
			c.pos[i] = len(recs)
		default:
			c.pos[i] = sort.Search(len(recs), func(j int) bool { return recs[j].Index >= bound })
		}
	}
	return c
}

// peek is the index of class i's next record in the cursor's direction.
func (c *cursor) peek(i int) (uint64, bool) {
	recs, p := c.v.classes[i], c.pos[i]
	if c.forward {
		if p < len(recs) {
			return recs[p].Index, true
		}
	} else if p > 0 {
		return recs[p-1].Index, true
	}
	return 0, false
}

// before reports whether index a comes before b in the cursor's direction.
func (c *cursor) before(a, b uint64) bool { return (a < b) == c.forward }

// walk calls fn with each record in the cursor's direction until fn
// returns false or the records end. Records come in runs: the class with
// the next record is read in a tight loop for as long as its records come
// before every other class's next one.
func (c *cursor) walk(fn func(*AuditRecord) bool) {
	for {
		best, hasBound := -1, false
		var bestIdx, bound uint64
		for i := range c.v.classes {
			idx, ok := c.peek(i)
			switch {
			case !ok:
			case best < 0 || c.before(idx, bestIdx):
				if best >= 0 {
					bound, hasBound = bestIdx, true
				}
				best, bestIdx = i, idx
			case !hasBound || c.before(idx, bound):
				bound, hasBound = idx, true
			}
		}
		if best < 0 {
			return
		}
		recs := c.v.classes[best]
		for {
			var r *AuditRecord
			if c.forward {
				if c.pos[best] == len(recs) {
					break
				}
				r = &recs[c.pos[best]]
			} else {
				if c.pos[best] == 0 {
					break
				}
				r = &recs[c.pos[best]-1]
			}
			if hasBound && !c.before(r.Index, bound) {
				break
			}
			if c.forward {
				c.pos[best]++
			} else {
				c.pos[best]--
			}
			if !fn(r) {
				return
			}
		}
	}
}

// ascending calls fn with each record above after, oldest first, until
// fn returns false.
func (v *AuditView) ascending(after uint64, fn func(*AuditRecord) bool) {
	v.from(true, after).walk(fn)
}

// AuditView returns the trail of s as readers see it, to publish.
func (s *State) AuditView() AuditView { return s.audit().AuditView }

// Count is how many records of kind the view holds.
func (v *AuditView) Count(kind string) int { return v.kinds[kindSlot(kind)] }

// AuditTotal is how many records the trail of s holds.
func (s *State) AuditTotal() int { return s.audit().Total() }
