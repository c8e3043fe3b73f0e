package fsm

import (
	"fmt"

	"github.com/raftns/raftns/fsm/state"
)

// applyDropUnlistedTopics applies State.ApplyDropUnlistedTopics and logs
// what it dropped.
func (f *FSM) applyDropUnlistedTopics(s *state.State, c *state.DropUnlistedTopics, index uint64) bool {
	dropped := s.ApplyDropUnlistedTopics(c)
	if dropped > 0 {
		f.logger.Info("topics dropped by registration", "broker", c.BrokerName, "topics", dropped, "index", index)
	}
	return dropped > 0
}

// UnlistedTopics returns what a registration that deletes unlisted topics
// (DeleteUnlistedTopics) would remove if applied now as one entry: nil
// when nothing, or when it would delete nothing anyway (a slave that is
// not the prime slave, a stale registration, static-topic mappings).
func (f *FSM) UnlistedTopics(cmd *state.RegisterBroker) *state.DropUnlistedTopics {
	whole := *cmd
	whole.DeleteUnlistedTopics, whole.Continuation = true, false
	topics := read(f, func(s *state.State) []string { return s.UnlistedTopics(&whole) })
	if len(topics) == 0 {
		return nil
	}
	return &state.DropUnlistedTopics{ClusterName: cmd.ClusterName, BrokerAddr: cmd.BrokerAddr, BrokerName: cmd.BrokerName,
		DataVersion: cmd.DataVersion, Topics: topics}
}

// dropEntryMargin is what SplitDrops leaves free in each entry beyond the
// command's header: msgpack's array header and slack for compression.
const dropEntryMargin = 1 << 10

// SplitDrops encodes d as as few entries of at most MaxEntrySize as its
// topics fit in, each naming a share of them under d's broker and
// DataVersion; applied in any order they remove what d would.
func SplitDrops(d *state.DropUnlistedTopics) ([][]byte, error) {
	head := *d
	head.Topics = nil
	buf, err := Encode(DropUnlistedTopicsType, &head)
	if err != nil {
		return nil, err
	}
	budget := MaxEntrySize - len(buf) - dropEntryMargin
	var entries [][]byte
	for rest := d.Topics; len(rest) > 0; {
		n, size := 0, 0
		// A msgpack string costs its bytes and at most 5 of header.
		for n < len(rest) && size+len(rest[n])+5 <= budget {
			size += len(rest[n]) + 5
			n++
		}
		part := head
		part.Topics = rest[:max(n, 1)]
		if buf, err = Encode(DropUnlistedTopicsType, &part); err != nil {
			return nil, err
		}
		if len(buf) > MaxEntrySize {
			return nil, fmt.Errorf("fsm: topics unlisted by %s cannot be split below %d bytes per entry", d.BrokerAddr, MaxEntrySize)
		}
		entries = append(entries, buf)
		rest = rest[len(part.Topics):]
	}
	return entries, nil
}
