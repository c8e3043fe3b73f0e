package state

import "strings"

// FilterByZone narrows a route to one zone as the 5.x NameServer does for a
// client that sends __ZONE_MODE=true and its __ZONE_NAME (ZoneRouteRPCHook):
// a group is kept when it has no master (so clients can still read from the
// slaves of another zone) or when its zoneName equals zone, ignoring case;
// the queue data and filter servers of the other groups are dropped. rd must
// be a copy the caller owns.
func FilterByZone(rd *TopicRouteData, zone string) {
	removed := map[string]BrokerData{}
	kept := rd.BrokerDatas[:0:0]
	for _, bd := range rd.BrokerDatas {
		if _, hasMaster := bd.BrokerAddrs[MasterID]; !hasMaster || strings.EqualFold(bd.ZoneName, zone) {
			kept = append(kept, bd)
			continue
		}
		removed[bd.BrokerName] = bd
	}
	rd.BrokerDatas = kept
	if len(removed) == 0 {
		return
	}
	queues := make([]QueueData, 0, len(rd.QueueDatas))
	for _, qd := range rd.QueueDatas {
		if _, gone := removed[qd.BrokerName]; !gone {
			queues = append(queues, qd)
		}
	}
	rd.QueueDatas = queues
	for _, bd := range removed {
		for _, addr := range bd.BrokerAddrs {
			delete(rd.FilterServerTable, addr)
		}
	}
}
