package fsm

import "sort"

// auditView is the trail as readers see it: the record list of each
// retention class and the count of each kind. A published view is never
// written: the FSM publishes a new one after every change to the trail
// (publishAudit), and queries read the newest without the state's lock,
// so a scan of the trail never holds up Apply.
type auditView struct {
	classes [auditClasses][]AuditRecord
	kinds   kindCounts
}

// publishAudit makes the trail of the current state what queries read.
// The caller holds mu for writing.
func (f *FSM) publishAudit() {
	v := f.st.audit.auditView
	f.trail.Store(&v)
}

// view returns the newest published view of the trail.
func (f *FSM) view() *auditView {
	if v := f.trail.Load(); v != nil {
		return v
	}
	return &auditView{}
}

// total is how many records the view holds.
func (v *auditView) total() int {
	n := 0
	for _, recs := range v.classes {
		n += len(recs)
	}
	return n
}

// lastIndex is the index of the newest record, 0 when the view is empty.
func (v *auditView) lastIndex() uint64 {
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
	v       *auditView
	forward bool
	// pos is, per class, the next record's position going forward, or
	// one past it going backward.
	pos [auditClasses]int
}

// from returns a cursor over the records above after (forward), or below
// before (backward; 0: from the newest).
func (v *auditView) from(forward bool, bound uint64) *cursor {
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

// next returns the next record in the cursor's direction, nil at the end.
func (c *cursor) next() *AuditRecord {
	best := -1
	var bestIndex uint64
	for i, recs := range c.v.classes {
		p := c.pos[i]
		if c.forward && p < len(recs) {
			if idx := recs[p].Index; best < 0 || idx < bestIndex {
				best, bestIndex = i, idx
			}
		} else if !c.forward && p > 0 {
			if idx := recs[p-1].Index; best < 0 || idx > bestIndex {
				best, bestIndex = i, idx
			}
		}
	}
	if best < 0 {
		return nil
	}
	if c.forward {
		c.pos[best]++
		return &c.v.classes[best][c.pos[best]-1]
	}
	c.pos[best]--
	return &c.v.classes[best][c.pos[best]]
}

// ascending calls fn with each record above after, oldest first, until
// fn returns false.
func (v *auditView) ascending(after uint64, fn func(*AuditRecord) bool) {
	c := v.from(true, after)
	for r := c.next(); r != nil && fn(r); r = c.next() {
	}
}
