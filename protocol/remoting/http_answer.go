package remoting

import (
	"encoding/binary"
	"errors"
)

// httpFrameLength is the frame length read from "HTTP", the first bytes of
// every HTTP/1.x response: a remoting client pointed at an HTTP port sees
// it as its first frame's length.
var httpFrameLength = int64(binary.BigEndian.Uint32([]byte("HTTP")))

// IsHTTPAnswer reports whether err is a frame whose length prefix was
// "HTTP": the peer answered as an HTTP server, so the address is an HTTP
// port rather than a RocketMQ remoting port.
func IsHTTPAnswer(err error) bool {
	var fe *frameSizeError
	return errors.As(err, &fe) && fe.size == httpFrameLength
}
