package body

import "github.com/raftns/raftns/fsm/state"

// EncodeBrokerMemberGroup returns the GET_BROKER_MEMBER_GROUP body (Java
// GetBrokerMemberGroupResponseBody) in Default mode, with bare numeric
// brokerAddrs keys in ascending order. A nil g writes {}.
func EncodeBrokerMemberGroup(g *state.BrokerMemberGroup) []byte {
	if g == nil {
		return []byte("{}")
	}
	dst := make([]byte, 0, 96+40*len(g.BrokerAddrs))
	dst = append(dst, `{"brokerMemberGroup":{"brokerAddrs":`...)
	dst = appendAddrMap(dst, g.BrokerAddrs, Default)
	dst = append(dst, `,"brokerName":`...)
	dst = AppendString(dst, g.BrokerName, Default)
	dst = append(dst, `,"cluster":`...)
	dst = AppendString(dst, g.Cluster, Default)
	return append(dst, '}', '}')
}

// DecodeBrokerMemberGroup reads a GetBrokerMemberGroupResponseBody. An
// absent or null brokerMemberGroup gives an empty group; BrokerAddrs is
// never nil.
func DecodeBrokerMemberGroup(b []byte) (*state.BrokerMemberGroup, error) {
	g := &state.BrokerMemberGroup{BrokerAddrs: map[int64]string{}}
	err := decodeTop(b, func(l *lexer) error {
		return l.object(func(key string) error {
			switch {
			case key != "brokerMemberGroup":
				return atPath(key, l.skip())
			case l.isNull():
				return nil
			}
			return atPath(key, readMemberGroup(l, g))
		})
	})
	if err != nil {
		return nil, decodeFailed("GetBrokerMemberGroupResponseBody", err)
	}
	return g, nil
}

func readMemberGroup(l *lexer, g *state.BrokerMemberGroup) error {
	return l.object(func(key string) error {
		var err error
		switch key {
		case "cluster":
			g.Cluster, err = l.str()
		case "brokerName":
			g.BrokerName, err = l.str()
		case "brokerAddrs":
			err = readAddrMap(l, g.BrokerAddrs)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
}
