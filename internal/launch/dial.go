package launch

import (
	"net"
	"syscall"
)

// SmallReceiveDialer dials with a socket receive buffer of size bytes, so
// that a test client that stops reading fills its connection quickly.
func SmallReceiveDialer(size int) *net.Dialer {
	return &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, size)
		}); err != nil {
			return err
		}
		return serr
	}}
}
