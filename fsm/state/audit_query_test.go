package state

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Queries over records spread across the classes give what one ordered
// list would give, in both directions, whatever the filters and pages.
func TestAudit_QueryMergesTheClassesInIndexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		v := &AuditView{}
		var all []AuditRecord
		for i := range rng.IntN(40) {
			r := AuditRecord{Index: uint64(i*2 + 1 + rng.IntN(2)), Who: []string{"a", "b"}[rng.IntN(2)], Kind: AuditPutKV}
			if len(all) > 0 && r.Index <= all[len(all)-1].Index {
				r.Index = all[len(all)-1].Index + 1
			}
			c := rng.IntN(int(auditClasses))
			v.classes[c] = append(v.classes[c], r)
			v.kinds[kindSlot(r.Kind)]++
			all = append(all, r)
		}
		q := AuditQuery{Who: "a", Limit: 1 + rng.IntN(5)}
		if rng.IntN(2) == 0 {
			q.After = uint64(rng.IntN(60))
		} else {
			q.Before = uint64(rng.IntN(60))
		}
		budget := 1 + rng.IntN(50)
		var want []uint64
		for _, r := range all {
			if r.Who == "a" && (q.After == 0 || r.Index > q.After) && (q.After != 0 || q.Before == 0 || r.Index < q.Before) {
				want = append(want, r.Index)
			}
		}
		var got []uint64
		for {
			p := v.Query(q, budget)
			for _, r := range p.Records {
				got = append(got, r.Index)
			}
			if !p.More {
				break
			}
			if q.After != 0 {
				q.After = p.Next
			} else {
				q.Before = p.Next
			}
		}
		if q.After == 0 {
			slices.Sort(got)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("query %+v with budget %d over %v: got %v, want %v", q, budget, all, got, want)
		}
	}
}
