package fastjson

import (
	"fmt"
	"unicode/utf8"
)

// Limits a zero Config field falls back to.
const (
	// DefaultMaxSize bounds one JSON text; REGISTER_BROKER bodies arrive in
	// frames of at most 16 MiB, decompressed parts stay below this.
	DefaultMaxSize = 64 << 20
	// DefaultMaxDepth bounds object and array nesting; real bodies nest
	// about 6 deep.
	DefaultMaxDepth = 64
)

// Config selects a Lexer's limits and the leniencies beyond fastjson's
// default parser features. The zero Config is fastjson's default parser
// with DefaultMaxSize and DefaultMaxDepth.
type Config struct {
	// MaxSize bounds the input length in bytes; 0 means DefaultMaxSize.
	MaxSize int
	// MaxDepth bounds the nesting of Object and Array; 0 means
	// DefaultMaxDepth.
	MaxDepth int
	// AnyEscape reads a backslash before a character that has no escape
	// meaning as that character (\q as q). fastjson rejects it
	// (JSONLexerBase.scanString), and so does a Lexer without AnyEscape.
	AnyEscape bool
	// RefAsEmpty makes Object read an object whose only member is "$ref" as
	// an empty object, as fastjson leaves a reference it cannot resolve
	// (docs/contributors/protocol.md, "fastjson rules"). Without it "$ref" is an ordinary key.
	RefAsEmpty bool
}

// Lexer is a pull reader for one JSON text as fastjson's default parser
// features (Java JSON.DEFAULT_PARSER_FEATURE) accept it: unquoted keys,
// numeric keys such as {0:0}, single-quoted strings, extra or trailing
// commas, and fastjson's extra escapes \x, \v, \F and octal digits. Callers
// consume values with Object, Array, Skip, Scalar and RawValue; every read
// is bounds-checked, so no input makes it panic. Byte slices it returns
// alias the input or its scratch buffer: they are read-only and valid until
// the next read. A Lexer is for one goroutine; the zero Lexer is ready
// after Reset.
type Lexer struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	cfg      Config
	// scratch holds the unescaped text of the last string that had escapes.
	scratch []byte
}

// Reset makes l read data under cfg, keeping only its scratch buffer. Data
// longer than the size limit gives ErrTooLarge and leaves l unchanged.
func (l *Lexer) Reset(data []byte, cfg Config) error {
	maxSize := cfg.MaxSize
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	if len(data) > maxSize {
		return tooLarge(len(data), maxSize)
	}
	l.data, l.pos, l.depth, l.cfg = data, 0, 0, cfg
	l.maxDepth = cfg.MaxDepth
	if l.maxDepth <= 0 {
		l.maxDepth = DefaultMaxDepth
	}
	l.scratch = l.scratch[:0]
	return nil
}

func tooLarge(n, limit int) error {
	return &Error{Err: ErrTooLarge, Msg: fmt.Sprintf("%d bytes of JSON, limit %d", n, limit), Offset: -1}
}

// Offset returns the byte offset of the next unread byte.
func (l *Lexer) Offset() int { return l.pos }

// Peek skips whitespace and returns the next byte, or 0 at the end. A NUL
// byte in the input also reads as 0; AtEnd tells the two apart.
func (l *Lexer) Peek() byte {
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		if c > ' ' || !isSpace(c) {
			return c
		}
		l.pos++
	}
	return 0
}

// isSpace reports whether c is whitespace to fastjson, which counts
// backspace and form feed too.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\b'
}

// AtEnd skips whitespace and reports whether the input is used up.
func (l *Lexer) AtEnd() bool { return l.Peek() == 0 && l.pos >= len(l.data) }

// Finish fails unless only whitespace is left.
func (l *Lexer) Finish() error {
	if !l.AtEnd() {
		return l.syntaxErr("unexpected data after the value")
	}
	return nil
}

func (l *Lexer) syntaxErr(msg string) error {
	return &Error{Err: ErrSyntax, Msg: msg, Offset: l.pos, AtEnd: l.pos >= len(l.data)}
}

func (l *Lexer) enter() error {
	l.depth++
	if l.depth > l.maxDepth {
		return &Error{Err: ErrTooDeep, Msg: fmt.Sprintf("more than %d levels", l.maxDepth), Offset: l.pos}
	}
	return nil
}

// Object reads an object and calls fn for each member with the lexer at
// the member's value; fn must consume that value. key is the unescaped key,
// valid only until fn reads. A value other than an object gives ErrType.
// With RefAsEmpty, a first key "$ref" whose value is followed only by
// commas and '}' makes the object read as empty.
func (l *Lexer) Object(fn func(key []byte) error) error {
	if l.Peek() != '{' {
		return l.TypeErr("object")
	}
	if err := l.enter(); err != nil {
		return err
	}
	l.pos++
	first := true
	for {
		c := l.Peek()
		switch c {
		case ',': // fastjson AllowArbitraryCommas
			l.pos++
			continue
		case '}':
			l.pos++
			l.depth--
			return nil
		case 0:
			return l.syntaxErr("unterminated object")
		}
		key, err := l.key(c)
		if err != nil {
			return err
		}
		if l.Peek() != ':' {
			return l.syntaxErr("expected ':' after object key")
		}
		l.pos++
		if first && l.cfg.RefAsEmpty && string(key) == "$ref" {
			only, err := l.onlyRef()
			if err != nil || only {
				return err
			}
			key = []byte("$ref") // reading ahead may have reused the scratch buffer
		}
		first = false
		if err := fn(key); err != nil {
			return err
		}
		switch c := l.Peek(); {
		case c == ',':
			l.pos++
		case c == '}':
			l.pos++
			l.depth--
			return nil
		case l.pos >= len(l.data):
			return l.syntaxErr("unterminated object")
		default:
			return l.syntaxErr("expected ',' or '}' in object")
		}
	}
}

// onlyRef looks past the value of a leading "$ref" key. If only commas and
// '}' follow, it consumes the rest of the object and reports true; otherwise
// it rewinds to the value so that "$ref" is read as an ordinary key.
func (l *Lexer) onlyRef() (bool, error) {
	start := l.pos
	if err := l.Skip(); err != nil {
		return false, err
	}
	for l.Peek() == ',' {
		l.pos++
	}
	if l.Peek() == '}' {
		l.pos++
		l.depth--
		return true, nil
	}
	l.pos = start
	return false, nil
}

// key reads an object key starting with c, the byte at the current offset:
// a double- or single-quoted string, or a bare token such as 0, -1 or
// topicName (fastjson AllowUnQuotedFieldNames).
func (l *Lexer) key(c byte) ([]byte, error) {
	if c == '"' || c == '\'' {
		return l.readString(c)
	}
	tok := l.bare()
	if len(tok) == 0 {
		return nil, l.syntaxErr("expected key")
	}
	return tok, nil
}

// bare reads a run of bytes that may form an unquoted key or token.
func (l *Lexer) bare() []byte {
	start, n := l.pos, 0
	for _, c := range l.data[start:] {
		if !isBareByte(c) {
			break
		}
		n++
	}
	l.pos = start + n
	return l.data[start:l.pos]
}

func isBareByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '$' || c == '-' || c == '+' || c == '.' || c >= utf8.RuneSelf
}

// Array reads an array and calls fn for each element; fn must consume it.
// Empty slots between commas are skipped. A value other than an array gives
// ErrType.
func (l *Lexer) Array(fn func(i int) error) error {
	if l.Peek() != '[' {
		return l.TypeErr("array")
	}
	if err := l.enter(); err != nil {
		return err
	}
	l.pos++
	for i := 0; ; {
		switch l.Peek() {
		case ',':
			l.pos++
			continue
		case ']':
			l.pos++
			l.depth--
			return nil
		case 0:
			return l.syntaxErr("unterminated array")
		}
		if err := fn(i); err != nil {
			return err
		}
		i++
		if c := l.Peek(); c != ',' && c != ']' {
			return l.syntaxErr("expected ',' or ']' in array")
		}
	}
}

// Skip consumes one value of any type, checking it as Object, Array and
// Scalar do.
func (l *Lexer) Skip() error {
	switch l.Peek() {
	case '{':
		return l.Object(func([]byte) error { return l.Skip() })
	case '[':
		return l.Array(func(int) error { return l.Skip() })
	}
	_, _, err := l.Scalar()
	return err
}
