package state

import (
	"maps"
	"slices"
)

// executeRegister writes everything of the plan except the live entry's
// epoch-stamped value, which the caller stores.
func (s *State) executeRegister(p *registerPlan) {
	c := p.cmd
	if p.addToCluster {
		writable(s, s.clusters(), c.ClusterName, true).m[c.BrokerName] = struct{}{}
	}
	if p.groupChanged {
		s.putGroup(cloneBrokerData(p.group))
	}
	if p.stale {
		if p.dropLive {
			delete(s.regs(), c.Key())
		}
		return
	}
	for _, topic := range p.dropped {
		s.dropQueue(topic, c.BrokerName)
	}
	for _, tq := range p.queues {
		s.putQueue(tq.topic, tq.qd)
	}
	for _, mi := range p.mappings {
		writable(s, s.mappings(), mi.Topic, true).m[mi.Bname] = mi
	}
	switch p.filter {
	case filterRemove:
		delete(s.filters(), c.Key())
	case filterSet:
		s.filters()[c.Key()] = slices.Clone(c.FilterServerList)
	}
}

// registerResult is the answer to the registration: for a slave whose master
// has a live entry in the same cluster, the master's address and HA address
// (RouteInfoManager.registerBroker, 5.x); the ORDER_TOPIC_CONFIG namespace
// when it exists. A stale registration gets only the latter. It reads
// nothing the plan changes, so it holds before and after execution.
func registerResult(s *State, p *registerPlan) RegisterResult {
	var r RegisterResult
	if ns := s.namespace(NamespaceOrderTopicConfig); ns != nil {
		r.HasOrderTopicConfig, r.OrderTopicConfig = true, maps.Clone(ns)
	}
	c := p.cmd
	if p.stale || c.BrokerID == MasterID {
		return r
	}
	masterAddr, ok := p.group.BrokerAddrs[MasterID]
	if !ok {
		return r
	}
	if live, ok := s.regs()[BrokerKey{Cluster: c.ClusterName, Addr: masterAddr}]; ok {
		r.MasterAddr, r.HaServerAddr = masterAddr, live.HaServerAddr
	}
	return r
}

// RegisterOutcome is what applying a registration did, for the applier's
// logs and observers.
type RegisterOutcome struct {
	// Result is the broker's answer.
	Result RegisterResult
	// Changed reports a change of the state.
	Changed bool
	// Stale is set when the stateVersion guard refused the registration.
	Stale bool
	// NewBroker is set when a broker without a live entry registered.
	NewBroker bool
	// Dropped is how many topics the registration dropped.
	Dropped int
}

// ApplyRegisterBroker applies a registration (RouteInfoManager.registerBroker,
// 5.x) and returns the broker's answer. A registration that passes the
// stateVersion guard always rewrites the live entry with RegEpoch = index,
// so an expiry decided before it no longer matches.
func (s *State) ApplyRegisterBroker(c *RegisterBroker, index uint64) RegisterOutcome {
	p := planRegister(s, c)
	s.executeRegister(p)
	if p.stale {
		return RegisterOutcome{Result: registerResult(s, p), Changed: p.changes(), Stale: true}
	}
	reg := p.reg
	reg.RegEpoch, reg.RegisteredAtMillis = index, c.StampMillis
	s.regs()[c.Key()] = reg
	s.noteRegistrationMinID(c, p.hadMembers, p.prevMin, p.group.BrokerAddrs, index)
	return RegisterOutcome{Result: registerResult(s, p), Changed: true, NewBroker: p.newReg, Dropped: len(p.dropped)}
}

// RegisterResultOf is the answer a registration gets from s, without
// applying it.
func (s *State) RegisterResultOf(c *RegisterBroker) RegisterResult {
	return registerResult(s, planRegister(s, c))
}
