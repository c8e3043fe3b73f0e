package fastjson

import (
	"errors"
	"strconv"
)

// Sentinel errors. Every Lexer error is an *Error that unwraps to one of them.
var (
	// ErrSyntax reports text that is not JSON even by fastjson's lenient rules.
	ErrSyntax = errors.New("fastjson: malformed JSON")
	// ErrType reports a value of another JSON type than the one asked for.
	ErrType = errors.New("fastjson: wrong JSON type")
	// ErrTooDeep reports objects and arrays nested deeper than the limit.
	ErrTooDeep = errors.New("fastjson: JSON nested too deeply")
	// ErrTooLarge reports an input longer than the size limit.
	ErrTooLarge = errors.New("fastjson: JSON too large")
)

// Error is what a Lexer returns for bad input: a sentinel with what was
// wrong and where, kept apart so that a caller can restate it under its own
// sentinel and in its own format.
type Error struct {
	// Err is ErrSyntax, ErrType, ErrTooDeep or ErrTooLarge.
	Err error
	// Msg says what was wrong, such as "unterminated string".
	Msg string
	// Offset is the byte offset in the input, or -1 when the error concerns
	// the input as a whole.
	Offset int
	// AtEnd is set when the input ended where more was expected.
	AtEnd bool
}

// Error returns the sentinel's text followed by Detail.
func (e *Error) Error() string { return e.Err.Error() + ": " + e.Detail() }

// Detail returns Msg with its position: "… at offset N", "… at end of
// input", or Msg alone for an Offset of -1.
func (e *Error) Detail() string {
	switch {
	case e.Offset < 0:
		return e.Msg
	case e.AtEnd:
		return e.Msg + " at end of input"
	}
	return e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }
