package state

import "errors"

// recAudit is the snapshot record of one AuditRecord, oldest first. It is
// written only while the trail holds records, which only entries of
// feature.AuditTrail add, so the snapshots of a cluster that never turned
// the trail on are what an older release writes.
const recAudit uint8 = 16

// auditTrail is the trail of one state version: one record list per
// retention class (audit_class.go), each ordered by index, and how many
// records of each kind they hold. Records are only appended and dropped
// from the front, so a record a reader can see is never written again:
// readers hold an AuditView of the lists without the state's lock, and a
// frozen state's lists are never appended to in place (a successor's
// first append copies them, slices.Clip; later appends are amortized).
type auditTrail struct {
	owner *version
	AuditView
}

var auditSlot = slotOf[*auditTrail]()

// audit is the audit trail of s.
func (s *State) audit() *auditTrail { return s.tables[auditSlot].(*auditTrail) }

func newAudit() table { return &auditTrail{} }

// thaw shares the record lists; the successor's first append clips them.
func (t *auditTrail) thaw() table {
	c := *t
	return &c
}

// walk emits the trail, oldest first across every class.
func (t *auditTrail) walk(emit emitFunc) error {
	var err error
	t.ascending(0, func(r *AuditRecord) bool {
		err = emit(recAudit, r)
		return err == nil
	})
	return err
}

// restore adds one record to its class; records come in index order, as
// walk writes them.
func (t *auditTrail) restore(rs *restorer, _ uint8, payload []byte) error {
	r, err := decode[AuditRecord](payload)
	if err != nil {
		return err
	}
	if last := t.LastIndex(); last != 0 && last >= r.Index {
		return errors.New("audit records out of order")
	}
	if t.Total() >= maxTrailRecords {
		return errors.New("more audit records than any trail keeps")
	}
	rec := boundRecord(*r)
	cls := classOf(&rec)
	t.owner = rs.s.version
	t.classes[cls] = append(t.classes[cls], rec)
	t.kinds[kindSlot(rec.Kind)]++
	return nil
}
