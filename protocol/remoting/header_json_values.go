package remoting

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/raftns/raftns/protocol/fastjson"
)

// jsonErr reports a malformed JSON header at byte offset off.
func jsonErr(off int, format string, args ...any) error {
	return fmt.Errorf("%w: json at offset %d: %s", ErrBadHeader, off, fmt.Sprintf(format, args...))
}

// headerErr restates an error of the fastjson lexer as ErrBadHeader with
// its message and offset; the decoder's own errors come back unchanged.
func headerErr(err error) error {
	if e, ok := err.(*fastjson.Error); ok {
		return jsonErr(e.Offset, "%s", e.Msg)
	}
	return err
}

// parseInt32 parses an optionally negative decimal integer of at most ten
// digits that fits int32.
func parseInt32(b []byte) (int32, bool) {
	if len(b) > 11 || (len(b) == 11 && b[0] != '-') {
		return 0, false
	}
	v, ok := fastjson.PlainDecimal(b)
	if !ok || v < -1<<31 || v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}

// toValidString converts b to a string, replacing each run of invalid UTF-8
// bytes with one U+FFFD, so decoded strings always re-encode as valid JSON.
// (fastjson.ValidString, used for bodies, replaces each byte; headers keep
// their own rule so that decoding stays as it was.)
func toValidString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
