package nscompare

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// broker is one broker id of a cluster table.
type broker struct {
	cluster, name, addr, zone string
	id                        int64
	actingMaster              bool
}

// subject names the broker id: "NAME/ID".
func (b broker) subject() string { return b.name + "/" + strconv.FormatInt(b.id, 10) }

// value describes what a name server holds for the broker id.
func (b broker) value() string {
	s := b.addr + " cluster " + b.cluster
	if b.zone != "" {
		s += " zone " + b.zone
	}
	if b.actingMaster {
		s += " acting-master"
	}
	return s
}

// queue is one broker group's queue data in a route.
type queue struct {
	broker                    string
	read, write, perm, sysFlg int32
}

// writable reports whether the queue's permission has the write bit
// (PermName.PERM_WRITE).
func (q queue) writable() bool { return q.perm&permWrite != 0 }

// permWrite is the write bit of a queue permission.
const permWrite = 2

// mapping is one broker's static-topic mapping in a route.
type mapping struct {
	broker      string
	epoch       int64
	totalQueues int32
}

// routeValue describes a route's queues and mappings, sorted by broker,
// e.g. "broker-a r4 w4 perm 6; broker-b r8 w8 perm 4".
func routeValue(queues []queue, mappings []mapping) string {
	sort.Slice(queues, func(i, j int) bool { return queues[i].broker < queues[j].broker })
	sort.Slice(mappings, func(i, j int) bool { return mappings[i].broker < mappings[j].broker })
	parts := make([]string, 0, len(queues)+len(mappings))
	for _, q := range queues {
		p := fmt.Sprintf("%s r%d w%d perm %d", q.broker, q.read, q.write, q.perm)
		if q.sysFlg != 0 {
			p += fmt.Sprintf(" sysflag %d", q.sysFlg)
		}
		parts = append(parts, p)
	}
	for _, m := range mappings {
		parts = append(parts, fmt.Sprintf("mapping %s epoch %d total %d", m.broker, m.epoch, m.totalQueues))
	}
	if len(parts) == 0 {
		return "no queues"
	}
	return strings.Join(parts, "; ")
}

// tally counts, for one broker group on one name server, the topics whose
// route has queues of the group and how many of them are writable.
type tally struct{ topics, writable int }

// wiped reports whether no queue of the group is writable: the state a
// WIPE_WRITE_PERM_OF_BROKER leaves.
func (t tally) wiped() bool { return t.topics > 0 && t.writable == 0 }

// value describes the tally's state, without counts: topics present on
// one name server only are topic differences already.
func (t tally) value() string {
	switch t.writable {
	case t.topics:
		return "writable"
	case 0:
		return "wiped"
	}
	return "partly writable"
}

// dataVersionValue describes a DataVersion.
func dataVersionValue(counter, timestamp, stateVersion int64) string {
	return fmt.Sprintf("counter %d timestamp %d stateVersion %d", counter, timestamp, stateVersion)
}

// kvSubject names a KV key.
func kvSubject(namespace, key string) string { return namespace + "/" + key }
