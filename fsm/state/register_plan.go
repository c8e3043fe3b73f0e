package state

import (
	"maps"
	"reflect"
	"slices"
)

// registerPlan is what applying one RegisterBroker would change, computed
// from the state without touching it. Apply executes it; WouldChange asks
// whether it is empty; RegisterResult reads its answer. Computing all three
// from one plan keeps "would change" and "does change" the same by
// construction. It ports RouteInfoManager.registerBroker (5.x) step by step.
type registerPlan struct {
	cmd *RegisterBroker

	addToCluster bool       // step 1: name joins clusterAddrTable[cluster]
	group        BrokerData // steps 2-4/7: the group after this registration
	groupChanged bool       // the group is new or differs from the stored one
	// hadMembers and prevMin are the group's smallest id before this
	// registration, for the min-broker-id notice.
	hadMembers bool
	prevMin    int64

	// stale is the 5.x stateVersion guard (step 5): only the steps above and
	// dropLive take effect.
	stale    bool
	dropLive bool

	queues   []topicQueue            // step 9: QueueData puts that change something
	dropped  []string                // step 9: deleteTopicWithBrokerRegistration
	mappings []TopicQueueMappingInfo // step 9: mapping puts that change something

	reg        BrokerRegistration // step 10: the new live entry (epoch unset)
	newReg     bool               // there was no live entry
	regChanged bool

	filter        filterOp // step 11
	filterChanged bool
}

type topicQueue struct {
	topic string
	qd    QueueData
}

type filterOp uint8

const (
	filterKeep filterOp = iota
	filterRemove
	filterSet
)

// changes reports whether executing the plan changes the state, apart from
// the registration's RegEpoch and RegisteredAtMillis.
func (p *registerPlan) changes() bool {
	return p.addToCluster || p.groupChanged || p.dropLive || len(p.queues) > 0 || len(p.dropped) > 0 ||
		len(p.mappings) > 0 || p.regChanged || p.filterChanged
}

// planRegister computes the plan for c against s; it changes neither.
func planRegister(s *State, c *RegisterBroker) *registerPlan {
	p, registerFirst := prepareRegister(s, c)
	if p.stale {
		return p
	}
	p.planTopics(s, registerFirst)
	p.planLive(s)
	p.planFilter(s)
	return p
}

// prepareRegister starts the plan of c: steps 2-4, the stale guard and the
// group as the registration leaves it. registerFirst reports that c is the
// first registration of its address under its id.
func prepareRegister(s *State, c *RegisterBroker) (p *registerPlan, registerFirst bool) {
	p = &registerPlan{cmd: c, addToCluster: !s.inCluster(c.ClusterName, c.BrokerName)}
	old, exists := s.brokers()[c.BrokerName]
	p.startGroup(old, exists)
	if p.stale = p.isStale(s); p.stale {
		_, p.dropLive = s.regs()[c.Key()]
		p.groupChanged = !exists || !equalBrokerData(old.data, p.group)
		return p, false
	}
	// DEVIATION: the 5.x single-topic guard (a first registration of this
	// id carrying exactly one topic fails with "register broker failed") is
	// not reproduced; the registration is accepted. That is safe: the
	// broker's next full registration still adds every topic that lacks
	// QueueData for this broker name (step 9), whatever its DataVersion.
	oldAddr, had := p.group.BrokerAddrs[c.BrokerID]
	p.group.BrokerAddrs[c.BrokerID] = c.BrokerAddr
	p.groupChanged = !exists || !equalBrokerData(old.data, p.group)
	return p, !exists || !had || oldAddr == ""
}

// startGroup ports steps 2-4: take or create the group, set enableActingMaster
// and zoneName as every registration does, and apply the slave-to-master
// switch (one address has one id).
func (p *registerPlan) startGroup(old *brokerGroup, exists bool) {
	c := p.cmd
	if exists {
		p.group = cloneBrokerData(old.data)
	} else {
		p.group = BrokerData{Cluster: c.ClusterName, BrokerName: c.BrokerName, BrokerAddrs: map[int64]string{}}
	}
	// A broker older than 5.0 (no header) is never an acting master.
	p.group.EnableActingMaster = c.HasEnableActingMaster && c.EnableActingMaster
	p.group.ZoneName = c.ZoneName
	if p.hadMembers = len(p.group.BrokerAddrs) > 0; p.hadMembers {
		p.prevMin = minID(p.group.BrokerAddrs)
	}
	maps.DeleteFunc(p.group.BrokerAddrs, func(id int64, addr string) bool {
		return addr == c.BrokerAddr && id != c.BrokerID
	})
}

// planTopics ports step 9: only the master, or the prime slave (the 5.x
// slave with the lowest id while no master is registered), writes queue data
// and mapping infos.
func (p *registerPlan) planTopics(s *State, registerFirst bool) {
	c := p.cmd
	writes, isPrimeSlave := p.topicWriter()
	if !writes {
		return
	}
	if p.deletesUnlisted() {
		p.planDrops(s)
	}
	dvChanged := p.dataVersionChanged(s) || c.Continuation
	p.planQueues(s, registerFirst, dvChanged, isPrimeSlave)
	if registerFirst || dvChanged {
		p.planMappings(s)
	}
}

// topicWriter reports whether the registration writes queue data and
// mapping infos (the master, or the prime slave) and whether it is the
// prime slave.
func (p *registerPlan) topicWriter() (writes, isPrimeSlave bool) {
	c := p.cmd
	isMaster := c.BrokerID == MasterID
	isPrimeSlave = c.HasEnableActingMaster && !isMaster && c.BrokerID == minID(p.group.BrokerAddrs)
	return isMaster || isPrimeSlave, isPrimeSlave
}

// deletesUnlisted reports whether the registration removes the topics it
// does not list (deleteTopicWithBrokerRegistration). A continuation part
// carries the rest of a registration split to keep Raft entries small, so
// it does not list the whole table.
func (p *registerPlan) deletesUnlisted() bool {
	c := p.cmd
	return c.DeleteUnlistedTopics && !c.Continuation && len(c.MappingInfos) == 0
}

// isStale is the 5.x guard against an old registration arriving after
// another address took over this id: the current holder's live entry has a
// greater stateVersion than the request.
func (p *registerPlan) isStale(s *State) bool {
	c := p.cmd
	cur, ok := p.group.BrokerAddrs[c.BrokerID]
	if !ok || cur == c.BrokerAddr {
		return false
	}
	live, ok := s.regs()[BrokerKey{Cluster: c.ClusterName, Addr: cur}]
	return ok && live.DataVersion.StateVersion > c.DataVersion.StateVersion
}

// dataVersionChanged is isBrokerTopicConfigChanged: no live entry, or a
// different DataVersion.
func (p *registerPlan) dataVersionChanged(s *State) bool {
	live, ok := s.regs()[p.cmd.Key()]
	return !ok || !live.DataVersion.Equal(p.cmd.DataVersion)
}

// planQueues ports the topic loop of step 9 with createAndUpdateQueueData.
// A topic is (re)written when the registration is first, the DataVersion
// changed, or the topic has no QueueData for this broker name; the perm of
// an acting-master prime slave loses its write bit. Only puts whose final
// value differs from the state are kept. The state's value of a topic is
// looked up once: at 100,000 topics the route table's lookups are most of
// what planning a large registration costs.
func (p *registerPlan) planQueues(s *State, registerFirst, dvChanged, isPrimeSlave bool) {
	c := p.cmd
	var pending map[string]pendingQueue // made at the first put: a heartbeat puts nothing
	var order []string
	for _, tc := range c.TopicConfigs {
		pq, seen := pending[tc.TopicName]
		cur, has := pq.qd, seen
		if !seen {
			pq.stored, pq.inState = s.Queue(tc.TopicName, c.BrokerName)
			cur, has = pq.stored, pq.inState
		}
		if !registerFirst && !dvChanged && has {
			continue
		}
		qd := QueueData{BrokerName: c.BrokerName, ReadQueueNums: tc.ReadQueueNums,
			WriteQueueNums: tc.WriteQueueNums, Perm: tc.Perm, TopicSysFlag: tc.TopicSysFlag}
		if isPrimeSlave && p.group.EnableActingMaster {
			qd.Perm &^= PermWrite
		}
		if has && cur == qd {
			continue
		}
		if pending == nil {
			pending = make(map[string]pendingQueue, len(c.TopicConfigs))
		}
		if !seen {
			order = append(order, tc.TopicName)
		}
		pq.qd = qd
		pending[tc.TopicName] = pq
	}
	for _, topic := range order {
		if pq := pending[topic]; !pq.inState || pq.stored != pq.qd {
			p.queues = append(p.queues, topicQueue{topic: topic, qd: pq.qd})
		}
	}
}

// pendingQueue is a topic's put while a registration is planned: the value
// to put and the state's value (stored, when inState).
type pendingQueue struct {
	qd, stored QueueData
	inState    bool
}

// planMappings ports the mapping-info update of step 9, keyed by the info's
// topic and broker name (bname), as the reference does.
func (p *registerPlan) planMappings(s *State) {
	type key struct{ topic, bname string }
	pending := map[key]TopicQueueMappingInfo{}
	var order []key
	for _, mi := range p.cmd.MappingInfos {
		k := key{mi.Topic, mi.Bname}
		if _, seen := pending[k]; !seen {
			order = append(order, k)
		}
		pending[k] = mi
	}
	for _, k := range order {
		mi := pending[k]
		if t, ok := s.mappings()[k.topic]; ok {
			// DeepEqual tells a nil CurrIDMap from an empty one, as the wire does.
			if cur, ok := t.m[k.bname]; ok && reflect.DeepEqual(cur, mi) {
				continue
			}
		}
		p.mappings = append(p.mappings, cloneMapping(mi))
	}
}

// planLive builds the new live entry (step 10).
func (p *registerPlan) planLive(s *State) {
	c := p.cmd
	// A timeout the broker did not send stays 0: the leader then applies
	// its configured broker expiry (reference: 120 s).
	p.reg = BrokerRegistration{Key: c.Key(), BrokerName: c.BrokerName, BrokerID: c.BrokerID,
		HaServerAddr: c.HaServerAddr, DataVersion: c.DataVersion, HeartbeatTimeoutMillis: c.HeartbeatTimeoutMillis}
	cur, ok := s.regs()[c.Key()]
	p.newReg = !ok
	p.regChanged = !ok || !sameRegistration(cur, p.reg)
}

// planFilter ports step 11: no list (legacy path) keeps the table, an empty
// list removes the entry, a non-empty one replaces it.
func (p *registerPlan) planFilter(s *State) {
	c := p.cmd
	if !c.HasFilterServerList {
		return
	}
	cur, ok := s.filters()[c.Key()]
	if len(c.FilterServerList) == 0 {
		p.filter, p.filterChanged = filterRemove, ok
		return
	}
	p.filter, p.filterChanged = filterSet, !ok || !slices.Equal(cur, c.FilterServerList)
}

// planDrops ports deleteTopicWithBrokerRegistration: the topics that have
// queue data of this broker name but are not in the registration lose it
// (and a topic left without queue data goes). It walks the broker name's
// own topics (the broker-name index), not the whole route table.
func (p *registerPlan) planDrops(s *State) {
	set, ok := s.byBroker()[p.cmd.BrokerName]
	if !ok {
		return
	}
	listed := make(map[string]struct{}, len(p.cmd.TopicConfigs))
	for _, tc := range p.cmd.TopicConfigs {
		listed[tc.TopicName] = struct{}{}
	}
	for topic := range set.m {
		if _, ok := listed[topic]; !ok {
			p.dropped = append(p.dropped, topic)
		}
	}
	slices.Sort(p.dropped)
}
