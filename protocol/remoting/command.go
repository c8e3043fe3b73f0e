package remoting

// SerializeType is the header serialization of a frame, carried in the top
// byte of the header-length word.
type SerializeType byte

// Header serializations.
const (
	SerializeJSON     SerializeType = 0
	SerializeRocketMQ SerializeType = 1
)

// Flag bits of a command.
const (
	FlagResponse int32 = 1 << 0
	FlagOneway   int32 = 1 << 1
)

// MaxFrameLength is the largest total length a frame may announce: 16 MiB
// including the 4-byte length prefix, as in the Java NettyDecoder.
const MaxFrameLength = 16*1024*1024 - 4

// ServerVersion is the MQVersion ordinal RaftNS puts in its responses:
// V5_5_0, the newest release it is tested against, which a 5.5.0 NameServer
// sends too.
const ServerVersion int32 = 513

// Command is one remoting request or response.
type Command struct {
	Code     int32
	Language string // LanguageCode name, e.g. "JAVA", "GO"
	Version  int32
	Opaque   int32
	Flag     int32
	// Remark is the free text; empty means absent.
	Remark string
	// ExtFields holds the custom header fields. nil means absent; an empty
	// non-nil map is written as {}.
	ExtFields map[string]string
	Body      []byte
	// SerializeType is the header serialization the command was read with,
	// or is to be written with.
	SerializeType SerializeType
}

// IsResponse reports whether the response bit is set.
func (c *Command) IsResponse() bool { return c.Flag&FlagResponse != 0 }

// IsOneway reports whether the sender wants no response.
func (c *Command) IsOneway() bool { return c.Flag&FlagOneway != 0 }

// NewResponse returns a response to req with the given code and remark: same
// opaque, response flag only, the request's serialization, and the server's
// version.
func NewResponse(req *Command, code int32, remark string) *Command {
	return &Command{
		Code:          code,
		Language:      "JAVA",
		Version:       ServerVersion,
		Opaque:        req.Opaque,
		Flag:          FlagResponse,
		Remark:        remark,
		SerializeType: req.SerializeType,
	}
}
