package remoting

import (
	"errors"
	"fmt"
)

// Sentinel errors. Decoders wrap them with the detail of what was wrong.
var (
	// ErrBadLength reports a frame length below 4, a negative length, or a
	// header length larger than the frame.
	ErrBadLength = errors.New("remoting: bad frame length")
	// ErrFrameTooLarge reports a frame longer than MaxFrameLength.
	ErrFrameTooLarge = errors.New("remoting: frame too large")
	// ErrHeaderTooLarge reports a header longer than MaxHeaderLength.
	ErrHeaderTooLarge = errors.New("remoting: header too large")
	// ErrTruncated reports a frame that ends before its announced length.
	ErrTruncated = errors.New("remoting: truncated frame")
	// ErrUnknownSerializeType reports a header serialize type other than JSON or ROCKETMQ.
	ErrUnknownSerializeType = errors.New("remoting: unknown serialize type")
	// ErrBadHeader reports a header that does not parse.
	ErrBadHeader = errors.New("remoting: malformed header")
	// ErrCodeRange reports a code that must fit int16 on the wire but does not.
	ErrCodeRange = errors.New("remoting: code does not fit int16")
	// ErrVersionRange reports a version that does not fit the binary header's int16.
	ErrVersionRange = errors.New("remoting: version does not fit int16")
	// ErrUnknownLanguage reports a language name with no LanguageCode byte,
	// which a binary header cannot carry.
	ErrUnknownLanguage = errors.New("remoting: language has no binary code")
	// ErrServerClosed is returned by Serve after Close, and is the close
	// reason of connections closed by Close.
	ErrServerClosed = errors.New("remoting: server closed")
	// ErrIdleTimeout is the close reason of a connection that was idle too long.
	ErrIdleTimeout = errors.New("remoting: connection idle timeout")
	// ErrFrameTimeout is the close reason of a connection whose frame did
	// not arrive within FrameTimeout of its first byte.
	ErrFrameTimeout = errors.New("remoting: frame not received in time")
	// ErrConnClosed reports a connection closed locally or broken under a call.
	ErrConnClosed = errors.New("remoting: connection closed")
	// ErrClientClosed reports a call on, or interrupted by, a closed Client.
	ErrClientClosed = errors.New("remoting: client closed")
	// ErrInvalidConfig reports a configuration value out of range.
	ErrInvalidConfig = errors.New("remoting: invalid config")
)

// isFrameError reports whether err is a decoding error of the frame itself,
// as opposed to an I/O error of the connection.
func isFrameError(err error) bool {
	for _, target := range []error{ErrBadLength, ErrFrameTooLarge, ErrHeaderTooLarge,
		ErrUnknownSerializeType, ErrBadHeader} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// frameSizeError is ErrFrameTooLarge with the length the frame announced.
type frameSizeError struct{ size int64 }

func (e *frameSizeError) Error() string {
	return fmt.Sprintf("%v: frame length %d exceeds %d", ErrFrameTooLarge, e.size, MaxFrameLength)
}

func (e *frameSizeError) Unwrap() error { return ErrFrameTooLarge }

// frameSize returns the length a refused frame announced, when err says.
func frameSize(err error) (int64, bool) {
	var fe *frameSizeError
	if errors.As(err, &fe) {
		return fe.size, true
	}
	return 0, false
}
