package nscompare

import (
	"container/heap"
	"sort"
	"sync"
)

// judge classifies one subject's values, one per name server (nil where
// absent), the last targets of which are targets. It returns "" when
// nothing is wrong: in a report (targets == 0) every server has the same
// value; in a verification every target has one of the values the
// references have.
func judge(values []*string, targets int) Problem {
	if targets == 0 {
		return agreement(values)
	}
	return coverage(values[:len(values)-targets], values[len(values)-targets:])
}

// agreement is judge for a report.
func agreement(values []*string) Problem {
	var first *string
	missing, different := false, false
	for _, v := range values {
		switch {
		case v == nil:
			missing = true
		case first == nil:
			first = v
		case *v != *first:
			different = true
		}
	}
	switch {
	case first == nil:
		return ""
	case missing:
		return Missing
	case different:
		return Different
	}
	return ""
}

// coverage is judge for a verification.
func coverage(refs, targets []*string) Problem {
	known := map[string]bool{}
	for _, v := range refs {
		if v != nil {
			known[*v] = true
		}
	}
	missing, different, extra := false, false, false
	for _, v := range targets {
		switch {
		case v == nil:
			missing = len(known) > 0
		case len(known) == 0:
			extra = true
		case !known[*v]:
			different = true
		}
	}
	switch {
	case missing:
		return Missing
	case different:
		return Different
	case extra:
		return Extra
	}
	return ""
}

// collector gathers differences from concurrent comparisons, keeping at
// most max of each kind (0: all), those with the smallest subjects, and
// counting the rest: thousands of topic differences do not crowd out the
// few broker ones, and the same state always lists the same differences.
type collector struct {
	targets int
	max     int

	mu      sync.Mutex
	kept    map[Kind]*bySubjectDesc
	found   int
	extras  int
	omitted int
	byKind  map[Kind]int
}

func newCollector(targets, max int) *collector {
	return &collector{targets: targets, max: max, byKind: map[Kind]int{}, kept: map[Kind]*bySubjectDesc{}}
}

// add judges one subject and keeps it when something is wrong. values is
// kept, not copied.
func (c *collector) add(kind Kind, subject string, values []*string) {
	p := judge(values, c.targets)
	if p == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p == Extra {
		c.extras++
	} else {
		c.found++
		c.byKind[kind]++
	}
	h := c.kept[kind]
	if h == nil {
		h = &bySubjectDesc{}
		c.kept[kind] = h
	}
	heap.Push(h, Difference{Kind: kind, Subject: subject, Problem: p, Values: values})
	if c.max > 0 && h.Len() > c.max {
		heap.Pop(h)
		c.omitted++
	}
}

// bySubjectDesc is a heap of differences whose top has the largest
// subject: the one to drop first.
type bySubjectDesc []Difference

func (h bySubjectDesc) Len() int           { return len(h) }
func (h bySubjectDesc) Less(i, j int) bool { return h[i].Subject > h[j].Subject }
func (h bySubjectDesc) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *bySubjectDesc) Push(x any)        { *h = append(*h, x.(Difference)) }
func (h *bySubjectDesc) Pop() any {
	old := *h
	d := old[len(old)-1]
	*h = old[:len(old)-1]
	return d
}

// addMaps compares a subject -> value map per name server (nil maps hold
// nothing): every subject of any map is judged.
func (c *collector) addMaps(kind Kind, perServer []map[string]string) {
	for _, s := range unionKeys(perServer) {
		c.add(kind, s, valuesOf(perServer, s))
	}
}

// unionKeys returns every key of the maps, sorted.
func unionKeys[V any](maps []map[string]V) []string {
	seen := map[string]bool{}
	for _, m := range maps {
		for k := range m {
			seen[k] = true
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// valuesOf returns subject's value in each map, nil where it is absent.
func valuesOf(perServer []map[string]string, subject string) []*string {
	values := make([]*string, len(perServer))
	for i, m := range perServer {
		if v, ok := m[subject]; ok {
			values[i] = &v
		}
	}
	return values
}

// result returns what was collected, sorted.
func (c *collector) result(servers []string, summaries []Summary) *Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	diffs := []Difference{}
	for _, h := range c.kept {
		diffs = append(diffs, *h...)
	}
	sortDifferences(diffs)
	return &Result{Servers: servers, Targets: c.targets, Summaries: summaries, Differences: diffs,
		Found: c.found, ByKind: c.byKind, Extras: c.extras, Omitted: c.omitted}
}
