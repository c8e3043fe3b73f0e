package fsm

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// Digest returns a SHA-256 over the whole replicated state in canonical
// order (the snapshot's records, without the applied index). Two members
// that applied the same log agree on it; tests use it to compare replicas.
func (f *FSM) Digest() [32]byte {
	return read(f, func(s *state) [32]byte { return s.digest(false, false) })
}

// DigestWithoutAudit is Digest without the audit trail: what a command
// refused at apply must leave as it was, though the trail records the
// refusal.
func (f *FSM) DigestWithoutAudit() [32]byte {
	return read(f, func(s *state) [32]byte { return s.digest(false, true) })
}

// digest hashes the canonical record stream. With ignoreEpochs the
// registrations' RegEpoch and RegisteredAtMillis are left out, which compares
// content regardless of which entry last wrote it. With ignoreAudit the
// audit trail is left out.
func (s *state) digest(ignoreEpochs, ignoreAudit bool) [32]byte {
	h := sha256.New()
	err := s.walk(func(recType uint8, v any) error {
		if _, ok := v.(*AuditRecord); ok && ignoreAudit {
			return nil
		}
		if _, ok := v.(*sessionRecord); ok && ignoreEpochs {
			return nil // which entries carried request ids is not content
		}
		if reg, ok := v.(*BrokerRegistration); ok && ignoreEpochs {
			r := *reg
			r.RegEpoch, r.RegisteredAtMillis = 0, 0
			v = &r
		}
		if n, ok := v.(*MinBrokerIDNotice); ok && ignoreEpochs {
			c := *n
			c.Index = 0
			v = &c
		}
		payload, err := encodeMsgpack(v)
		if err != nil {
			return err
		}
		var hdr [9]byte
		hdr[0] = recType
		binary.BigEndian.PutUint64(hdr[1:], uint64(len(payload)))
		h.Write(hdr[:])
		h.Write(payload)
		return nil
	})
	if err != nil {
		// The records are plain structs; failing to encode one is a bug.
		panic(fmt.Sprintf("fsm: digest: %v", err))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
