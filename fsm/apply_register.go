package fsm

import (
	"maps"
	"slices"
)

// applyRegisterBroker applies a registration (RouteInfoManager.registerBroker,
// 5.x) and returns the broker's answer. A registration that passes the
// stateVersion guard always rewrites the live entry with RegEpoch = index,
// so an expiry decided before it no longer matches.
func (f *FSM) applyRegisterBroker(s *state, c *RegisterBroker, index uint64) (RegisterResult, bool) {
	p := planRegister(s, c)
	s.executeRegister(p)
	if p.stale {
		f.logger.Warn("stale broker registration ignored", "cluster", c.ClusterName, "broker", c.BrokerName,
			"id", c.BrokerID, "addr", c.BrokerAddr, "stateVersion", c.DataVersion.StateVersion, "index", index)
		return registerResult(s, p), p.changes()
	}
	reg := p.reg
	reg.RegEpoch, reg.RegisteredAtMillis = index, c.StampMillis
	s.regs[c.Key()] = reg
	s.noteRegistrationMinID(c, p.hadMembers, p.prevMin, p.group.BrokerAddrs, index)
	if len(p.dropped) > 0 {
		f.logger.Info("topics dropped by registration", "broker", c.BrokerName, "topics", len(p.dropped), "index", index)
	}
	if p.newReg {
		f.logger.Info("new broker registered", "cluster", c.ClusterName, "broker", c.BrokerName,
			"id", c.BrokerID, "addr", c.BrokerAddr, "haServer", c.HaServerAddr, "index", index)
		f.notify(BrokerChange{Kind: BrokerRegistered, Cluster: c.ClusterName, BrokerName: c.BrokerName,
			BrokerID: c.BrokerID, Addr: c.BrokerAddr, Index: index})
	}
	return registerResult(s, p), true
}

// executeRegister writes everything of the plan except the live entry's
// epoch-stamped value, which the caller stores.
func (s *state) executeRegister(p *registerPlan) {
	c := p.cmd
	if p.addToCluster {
		writable(s, s.clusters, c.ClusterName, true).m[c.BrokerName] = struct{}{}
	}
	if p.groupChanged {
		s.putGroup(cloneBrokerData(p.group))
	}
	if p.stale {
		if p.dropLive {
			delete(s.regs, c.Key())
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
		writable(s, s.mappings, mi.Topic, true).m[mi.Bname] = mi
	}
	switch p.filter {
	case filterRemove:
		delete(s.filters, c.Key())
	case filterSet:
		s.filters[c.Key()] = slices.Clone(c.FilterServerList)
	}
}

// registerResult is the answer to the registration: for a slave whose master
// has a live entry in the same cluster, the master's address and HA address
// (RouteInfoManager.registerBroker, 5.x); the ORDER_TOPIC_CONFIG namespace
// when it exists. A stale registration gets only the latter. It reads
// nothing the plan changes, so it holds before and after execution.
func registerResult(s *state, p *registerPlan) RegisterResult {
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
	if live, ok := s.regs[BrokerKey{Cluster: c.ClusterName, Addr: masterAddr}]; ok {
		r.MasterAddr, r.HaServerAddr = masterAddr, live.HaServerAddr
	}
	return r
}
