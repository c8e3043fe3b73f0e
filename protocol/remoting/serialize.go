package remoting

import "strconv"

// String returns the name Java uses for the serialize type ("JSON",
// "ROCKETMQ"), or "SerializeType(n)" for an unknown value.
func (t SerializeType) String() string {
	switch t {
	case SerializeJSON:
		return "JSON"
	case SerializeRocketMQ:
		return "ROCKETMQ"
	}
	return "SerializeType(" + strconv.Itoa(int(t)) + ")"
}

// valid reports whether t is a header serialization this package reads and writes.
func (t SerializeType) valid() bool { return t == SerializeJSON || t == SerializeRocketMQ }
