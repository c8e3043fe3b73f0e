package fsm

import "github.com/raftns/raftns/fsm/state"

// applyRegisterTopic applies REGISTER_TOPIC_IN_NAMESRV
// (State.ApplyRegisterTopic) and logs a broker name without a group.
func (f *FSM) applyRegisterTopic(s *state.State, c *state.RegisterTopic) bool {
	changed, unknown := s.ApplyRegisterTopic(c)
	if unknown != "" {
		f.logger.Warn("register topic names an unknown broker", "topic", c.Topic, "broker", unknown)
	}
	return changed
}
