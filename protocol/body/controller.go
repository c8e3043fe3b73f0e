package body

import (
	"strconv"

	"github.com/raftns/raftns/fsm/state"
)

// SyncStateSet is the controller's SyncStateSet body (Java SyncStateSet).
type SyncStateSet struct {
	IDs   []int64
	Epoch int32
}

// EncodeSyncStateSet writes a SyncStateSet in Default mode.
func EncodeSyncStateSet(ids []int64, epoch int32) []byte {
	dst := append([]byte(nil), `{"syncStateSet":`...)
	dst = appendIDs(dst, ids)
	dst = append(dst, `,"syncStateSetEpoch":`...)
	dst = strconv.AppendInt(dst, int64(epoch), 10)
	return append(dst, '}')
}

func appendIDs(dst []byte, ids []int64) []byte {
	dst = append(dst, '[')
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, id, 10)
	}
	return append(dst, ']')
}

// DecodeSyncStateSet reads a SyncStateSet body. A missing set is empty.
func DecodeSyncStateSet(b []byte) (SyncStateSet, error) {
	var out SyncStateSet
	err := decodeTop(b, func(l *lexer) error {
		return l.object(func(key string) error {
			var err error
			switch key {
			case "syncStateSet":
				out.IDs, err = l.longList()
			case "syncStateSetEpoch":
				out.Epoch, err = l.int32v(0)
			default:
				err = l.skip()
			}
			return atPath(key, err)
		})
	})
	if err != nil {
		return SyncStateSet{}, decodeFailed("SyncStateSet", err)
	}
	return out, nil
}

// longList reads a JSON array of Java Longs; null elements are dropped.
func (l *lexer) longList() ([]int64, error) {
	if l.isNull() {
		return nil, nil
	}
	var out []int64
	err := l.array(func(i int) error {
		v, ok, err := l.optInt(-1<<63, 1<<63-1)
		if ok {
			out = append(out, v)
		}
		return atPath("["+strconv.Itoa(i)+"]", err)
	})
	return out, err
}

// DecodeStringList reads a JSON array of strings (the broker names of
// CONTROLLER_GET_SYNC_STATE_DATA).
func DecodeStringList(b []byte) ([]string, error) {
	var out []string
	err := decodeTop(b, func(l *lexer) error {
		var err error
		out, err = l.stringList()
		return err
	})
	if err != nil {
		return nil, decodeFailed("List<String>", err)
	}
	return out, nil
}

// EncodeElectMasterResponseBody writes Java ElectMasterResponseBody; a nil
// group is left out, as fastjson leaves out null fields.
func EncodeElectMasterResponseBody(group *state.BrokerMemberGroup, syncStateSet []int64) []byte {
	dst := append([]byte(nil), '{')
	if group != nil {
		dst = append(dst, `"brokerMemberGroup":{"brokerAddrs":`...)
		dst = appendAddrMap(dst, group.BrokerAddrs, Default)
		dst = append(dst, `,"brokerName":`...)
		dst = AppendString(dst, group.BrokerName, Default)
		dst = append(dst, `,"cluster":`...)
		dst = AppendString(dst, group.Cluster, Default)
		dst = append(dst, `},`...)
	}
	dst = append(dst, `"syncStateSet":`...)
	dst = appendIDs(dst, syncStateSet)
	return append(dst, '}')
}

// ReplicaIdentity is one broker in a BrokerReplicasInfo.
type ReplicaIdentity struct {
	BrokerName string
	BrokerID   int64
	Addr       string
	Alive      bool
}

// ReplicasInfo is one group's entry of a BrokerReplicasInfo.
type ReplicasInfo struct {
	HasMaster         bool
	MasterBrokerID    int64
	MasterAddr        string
	MasterEpoch       int32
	SyncStateSetEpoch int32
	InSync, NotInSync []ReplicaIdentity
}

// EncodeBrokerReplicasInfo writes Java BrokerReplicasInfo with the groups
// in names order (fastjson writes a HashMap in its iteration order; any
// order reads back the same).
func EncodeBrokerReplicasInfo(names []string, infos map[string]ReplicasInfo) []byte {
	dst := append([]byte(nil), `{"replicasInfoTable":{`...)
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		info := infos[name]
		dst = AppendKey(dst, name, Default)
		dst = append(dst, `{"inSyncReplicas":`...)
		dst = appendReplicas(dst, info.InSync)
		if info.MasterAddr != "" {
			dst = append(dst, `,"masterAddress":`...)
			dst = AppendString(dst, info.MasterAddr, Default)
		}
		if info.HasMaster {
			dst = append(dst, `,"masterBrokerId":`...)
			dst = strconv.AppendInt(dst, info.MasterBrokerID, 10)
		}
		dst = append(dst, `,"masterEpoch":`...)
		dst = strconv.AppendInt(dst, int64(info.MasterEpoch), 10)
		dst = append(dst, `,"notInSyncReplicas":`...)
		dst = appendReplicas(dst, info.NotInSync)
		dst = append(dst, `,"syncStateSetEpoch":`...)
		dst = strconv.AppendInt(dst, int64(info.SyncStateSetEpoch), 10)
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}

func appendReplicas(dst []byte, rs []ReplicaIdentity) []byte {
	dst = append(dst, '[')
	for i, r := range rs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"alive":`...)
		dst = strconv.AppendBool(dst, r.Alive)
		dst = append(dst, `,"brokerAddress":`...)
		dst = AppendString(dst, r.Addr, Default)
		dst = append(dst, `,"brokerId":`...)
		dst = strconv.AppendInt(dst, r.BrokerID, 10)
		dst = append(dst, `,"brokerName":`...)
		dst = AppendString(dst, r.BrokerName, Default)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}
