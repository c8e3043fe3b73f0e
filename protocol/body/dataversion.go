package body

import "github.com/raftns/raftns/fsm/state"

// EncodeDataVersion returns a DataVersion body in the 5.x shape,
// {"counter":…,"stateVersion":…,"timestamp":…} (QUERY_DATA_VERSION answer).
// 4.x brokers ignore the stateVersion property.
func EncodeDataVersion(dv state.DataVersion) []byte {
	return appendDataVersion(make([]byte, 0, 64), dv, true)
}

// appendDataVersion writes a Java DataVersion; withState selects the 5.x
// shape with stateVersion (R49's class has no such property).
func appendDataVersion(dst []byte, dv state.DataVersion, withState bool) []byte {
	dst = append(dst, `{"counter":`...)
	dst = AppendLong(dst, dv.Counter, Default)
	if withState {
		dst = append(dst, `,"stateVersion":`...)
		dst = AppendLong(dst, dv.StateVersion, Default)
	}
	dst = append(dst, `,"timestamp":`...)
	dst = AppendLong(dst, dv.Timestamp, Default)
	return append(dst, '}')
}

// DecodeDataVersion reads a DataVersion body (QUERY_DATA_VERSION request).
// Missing counter and stateVersion are 0; a missing timestamp takes
// defaultTimestamp, since Java's field default is the time the object was
// created. An empty body or null gives ErrEmptyBody.
func DecodeDataVersion(b []byte, defaultTimestamp int64) (state.DataVersion, error) {
	var dv state.DataVersion
	err := decodeTop(b, func(l *lexer) error {
		var err error
		dv, err = readDataVersion(l, defaultTimestamp)
		return err
	})
	if err != nil {
		return state.DataVersion{}, decodeFailed("DataVersion", err)
	}
	return dv, nil
}

func readDataVersion(l *lexer, defaultTimestamp int64) (state.DataVersion, error) {
	dv := state.DataVersion{Timestamp: defaultTimestamp}
	err := l.object(func(key string) error {
		var err error
		switch key {
		case "timestamp":
			dv.Timestamp, err = l.int64v(defaultTimestamp)
		case "counter":
			dv.Counter, err = l.int64v(0)
		case "stateVersion":
			dv.StateVersion, err = l.int64v(0)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
	return dv, err
}
