package body

import (
	"errors"
	"strings"
)

var (
	// ErrEmptyBody is returned when a body that must carry a value is empty
	// or the JSON literal null.
	ErrEmptyBody = errors.New("body: empty body")
	// ErrSyntax is returned for text that is not JSON even by fastjson's
	// lenient rules.
	ErrSyntax = errors.New("body: malformed JSON")
	// ErrTooDeep is returned when JSON nests deeper than the decoder allows.
	ErrTooDeep = errors.New("body: JSON nested too deeply")
	// ErrTooLarge is returned when an input or a decompressed stream exceeds
	// the decoder's size limit.
	ErrTooLarge = errors.New("body: body too large")
	// ErrNoMemory is returned when the request-memory budget refused the
	// bytes a body inflates to; the request may be retried later.
	ErrNoMemory = errors.New("body: request memory budget exhausted")
	// ErrType is returned when a JSON value has the wrong type for its field.
	ErrType = errors.New("body: wrong JSON type")
	// ErrRange is returned when a number does not fit its Java field type.
	ErrRange = errors.New("body: number out of range")
	// ErrCompressed is returned when a compressed REGISTER_BROKER body is not
	// a zlib stream or its binary layout is broken.
	ErrCompressed = errors.New("body: malformed compressed body")
	// ErrInvalid is returned when a value breaks a rule of the body format,
	// such as a topic config without a name or a duplicate topic.
	ErrInvalid = errors.New("body: invalid value")
)

// decodeError carries the body type and the JSON path of a decode failure
// while still unwrapping to one of the sentinels above.
type decodeError struct {
	body string // Java class name, e.g. RegisterBrokerBody
	path string // e.g. topicConfigSerializeWrapper.topicConfigTable.TopicA.perm
	err  error
}

func (e *decodeError) Error() string {
	var b strings.Builder
	b.WriteString("body: ")
	if e.body != "" {
		b.WriteString("decode ")
		b.WriteString(e.body)
		b.WriteString(": ")
	}
	if e.path != "" {
		b.WriteString(e.path)
		b.WriteString(": ")
	}
	b.WriteString(strings.TrimPrefix(e.err.Error(), "body: "))
	return b.String()
}

func (e *decodeError) Unwrap() error { return e.err }

// atPath prefixes a path segment (a key, or "[i]" for an array index) to the
// location of err.
func atPath(seg string, err error) error {
	if err == nil {
		return nil
	}
	de, ok := err.(*decodeError)
	if !ok {
		return &decodeError{path: seg, err: err}
	}
	switch {
	case de.path == "":
		de.path = seg
	case de.path[0] == '[':
		de.path = seg + de.path
	default:
		de.path = seg + "." + de.path
	}
	return de
}

// decodeFailed names the body type in err; every exported decoder returns
// its errors through it.
func decodeFailed(body string, err error) error {
	if err == nil {
		return nil
	}
	de, ok := err.(*decodeError)
	if !ok {
		return &decodeError{body: body, err: err}
	}
	de.body = body
	return de
}
