package state

import "strings"

// SyncBrokerMemberGroupPrefix starts the per-group system topics 5.x brokers
// use to find their peers (Java TopicValidator.SYNC_BROKER_MEMBER_GROUP_PREFIX).
// Their routes always show the registered ids.
const SyncBrokerMemberGroupPrefix = "rmq_sys_SYNC_BROKER_MEMBER_"

// ShowActingMasters rewrites a route as a 5.x NameServer with
// supportActingMaster does (the tail of RouteInfoManager.pickupTopicRouteData):
// in a group that has registered addresses but no master, that enabled
// acting master, and whose queue data for this topic is not writable (the
// prime slave registered it read-only, or the master's leave wiped the write
// bit), the address with the smallest id is shown under id 0. rd must be a
// copy the caller owns (Route returns one); the topic's system-group routes
// and routes in which every group has a master are left alone.
func ShowActingMasters(topic string, rd *TopicRouteData) {
	if strings.HasPrefix(topic, SyncBrokerMemberGroupPrefix) || len(rd.BrokerDatas) == 0 || len(rd.QueueDatas) == 0 {
		return
	}
	for i := range rd.BrokerDatas {
		bd := &rd.BrokerDatas[i]
		addrs := bd.BrokerAddrs
		if len(addrs) == 0 {
			continue
		}
		if _, hasMaster := addrs[MasterID]; hasMaster || !bd.EnableActingMaster {
			continue
		}
		qd, ok := firstQueueData(rd.QueueDatas, bd.BrokerName)
		if !ok || qd.Perm&PermWrite != 0 {
			continue
		}
		id := minID(addrs)
		addrs[MasterID] = addrs[id]
		delete(addrs, id)
	}
}

// firstQueueData returns the queue data of brokerName, as the reference's
// scan that stops at the first match.
func firstQueueData(qds []QueueData, brokerName string) (QueueData, bool) {
	for _, qd := range qds {
		if qd.BrokerName == brokerName {
			return qd, true
		}
	}
	return QueueData{}, false
}
