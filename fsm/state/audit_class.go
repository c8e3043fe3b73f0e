package state

// auditClass is a retention class of the trail. Each class is bounded on
// its own, so records of one class never push out another's: a flood of
// writes that change nothing, or of anonymous changes, cannot erase what
// an operator did.
type auditClass uint8

const (
	// classChanges holds the applied changes of callers that proved no
	// identity and the leader's own decisions.
	classChanges auditClass = iota
	// classOperator holds every record of a caller that proved an
	// identity: the admin token or a signed (ACL) request.
	classOperator
	// classNoEffect holds the records of other callers that changed
	// nothing: "no change", refused or failed.
	classNoEffect
	auditClasses
)

// Callers that proved no identity (cluster.CallerAnonymous and the
// leader's own stamp).
const (
	whoAnonymous = "anonymous"
	whoLeader    = "raftns"
)

// noEffectShare is the no-effect class's share of a stamp's MaxRecords:
// it keeps a tenth as many records as each other class.
const noEffectShare = 10

// maxTrailRecords is the most records a trail holds: every class full
// under the largest bound a stamp may ask for.
const maxTrailRecords = 2*MaxAuditRecords + MaxAuditRecords/noEffectShare

// classOf is the class a record belongs to, from its own fields alone, so
// every member and every restore of a snapshot agree.
func classOf(r *AuditRecord) auditClass {
	switch r.Who {
	case whoAnonymous, whoLeader, "":
	default:
		return classOperator
	}
	if r.Outcome == OutcomeApplied {
		return classChanges
	}
	return classNoEffect
}

// classLimit is how many records class c keeps under a stamp that keeps
// maxRecords.
func classLimit(c auditClass, maxRecords int) int {
	if c == classNoEffect {
		return max(1, maxRecords/noEffectShare)
	}
	return maxRecords
}

// kindCounts counts the records of each kind AuditKinds names, with one
// more slot for every other kind.
type kindCounts [len(auditKinds) + 1]int

// kindSlots maps each named kind to its slot in kindCounts.
var kindSlots = func() map[string]int {
	m := make(map[string]int, len(auditKinds))
	for i, k := range auditKinds {
		m[k] = i
	}
	return m
}()

// kindSlot is kind's slot in kindCounts.
func kindSlot(kind string) int {
	if i, ok := kindSlots[kind]; ok {
		return i
	}
	return len(auditKinds)
}
