package fsm

import "github.com/raftns/raftns/fsm/state"

import "fmt"

// MaxEntrySize is the largest Raft entry RaftNS proposes. hashicorp/raft
// suggests keeping entries under 512 KiB; the margin leaves room for the
// entry's framing.
const MaxEntrySize = 400 << 10

// SplitRegistration encodes a registration as one entry, or, when that
// entry would exceed MaxEntrySize, as several: the first carries the header
// fields with the first share of the topics, the others the remaining
// topics marked Continuation. Applied in order they change the state as the
// whole registration would; registration never removes topics, so a reader
// between two parts sees a subset of the new topics, never a loss.
func SplitRegistration(cmd *state.RegisterBroker) ([][]byte, error) {
	whole, err := Encode(RegisterBrokerType, cmd)
	if err != nil || len(whole) <= MaxEntrySize {
		return [][]byte{whole}, err
	}
	for parts := len(whole)/MaxEntrySize + 2; parts <= len(cmd.TopicConfigs); parts *= 2 {
		entries, ok, err := splitInto(cmd, parts)
		if err != nil || ok {
			return entries, err
		}
	}
	return nil, fmt.Errorf("fsm: registration of %s cannot be split below %d bytes per entry", cmd.BrokerAddr, MaxEntrySize)
}

// splitInto encodes cmd as parts entries; ok is false if one is too large.
func splitInto(cmd *state.RegisterBroker, parts int) ([][]byte, bool, error) {
	topics := cmd.TopicConfigs
	size := (len(topics) + parts - 1) / parts
	var entries [][]byte
	for i := 0; i < len(topics); i += size {
		part := *cmd
		part.DeleteUnlistedTopics = false
		part.TopicConfigs = topics[i:min(i+size, len(topics))]
		if i > 0 {
			part.Continuation = true
			part.MappingInfos = nil
		}
		buf, err := Encode(RegisterBrokerType, &part)
		if err != nil {
			return nil, false, err
		}
		if len(buf) > MaxEntrySize {
			return nil, false, nil
		}
		entries = append(entries, buf)
	}
	return entries, true, nil
}
