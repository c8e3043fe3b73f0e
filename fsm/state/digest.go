package state

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// Digest hashes the canonical record stream. With ignoreEpochs the
// registrations' RegEpoch and RegisteredAtMillis are left out, which compares
// content regardless of which entry last wrote it. With ignoreAudit the
// audit trail is left out.
func (s *State) Digest(ignoreEpochs, ignoreAudit bool) [32]byte {
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
		payload, err := EncodeMsgpack(v)
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
