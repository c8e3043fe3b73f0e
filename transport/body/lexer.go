package body

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits of the lenient JSON reader.
const (
	// maxJSONSize bounds one JSON text; REGISTER_BROKER bodies arrive in
	// frames of at most 16 MiB, decompressed parts stay below this.
	maxJSONSize = 64 << 20
	// maxDepth bounds object and array nesting; real bodies nest about 6 deep.
	maxDepth = 64
)

// lexer is a pull reader for JSON as fastjson's default parser features
// accept it (Java JSON.DEFAULT_PARSER_FEATURE): unquoted keys, numeric keys
// such as {0:0}, single-quoted strings, and extra or trailing commas. An
// object whose only key is "$ref" reads as an empty object. Callers consume
// values through object, array, skip and the scalar readers in values.go.
type lexer struct {
	data  []byte
	pos   int
	depth int
}

func newLexer(b []byte) (*lexer, error) {
	if len(b) > maxJSONSize {
		return nil, fmt.Errorf("%w: %d bytes of JSON, limit %d", ErrTooLarge, len(b), maxJSONSize)
	}
	return &lexer{data: b}, nil
}

func (l *lexer) syntaxErr(what string) error {
	if l.pos >= len(l.data) {
		return fmt.Errorf("%w: %s at end of input", ErrSyntax, what)
	}
	return fmt.Errorf("%w: %s at offset %d", ErrSyntax, what, l.pos)
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (l *lexer) peek() byte {
	for l.pos < len(l.data) {
		switch c := l.data[l.pos]; c {
		case ' ', '\t', '\n', '\r', '\f', '\b':
			l.pos++
		default:
			return c
		}
	}
	return 0
}

// atEnd reports whether only whitespace is left.
func (l *lexer) atEnd() bool { return l.peek() == 0 && l.pos >= len(l.data) }

// finish fails unless only whitespace is left.
func (l *lexer) finish() error {
	if !l.atEnd() {
		return l.syntaxErr("unexpected data after the value")
	}
	return nil
}

func (l *lexer) enter() error {
	l.depth++
	if l.depth > maxDepth {
		return fmt.Errorf("%w: more than %d levels at offset %d", ErrTooDeep, maxDepth, l.pos)
	}
	return nil
}

// object reads an object and calls fn for each member; fn must consume the
// member's value. A first key "$ref" whose value is followed only by commas
// and '}' makes the object read as empty (fastjson reference, §3.1).
func (l *lexer) object(fn func(key string) error) error {
	if l.peek() != '{' {
		return l.typeErr("object")
	}
	if err := l.enter(); err != nil {
		return err
	}
	l.pos++
	first := true
	for {
		switch l.peek() {
		case ',':
			l.pos++
			continue
		case '}':
			l.pos++
			l.depth--
			return nil
		case 0:
			return l.syntaxErr("unterminated object")
		}
		key, err := l.key()
		if err != nil {
			return err
		}
		if l.peek() != ':' {
			return l.syntaxErr("expected ':' after object key")
		}
		l.pos++
		if first && key == "$ref" {
			only, err := l.onlyRef()
			if err != nil || only {
				return err
			}
		}
		first = false
		if err := fn(key); err != nil {
			return err
		}
		if c := l.peek(); c != ',' && c != '}' {
			return l.syntaxErr("expected ',' or '}' in object")
		}
	}
}

// onlyRef looks past the value of a leading "$ref" key. If only commas and
// '}' follow, it consumes the rest of the object and reports true; otherwise
// it rewinds to the value so that "$ref" is read as an ordinary key.
func (l *lexer) onlyRef() (bool, error) {
	start := l.pos
	if err := l.skip(); err != nil {
		return false, err
	}
	for l.peek() == ',' {
		l.pos++
	}
	if l.peek() == '}' {
		l.pos++
		l.depth--
		return true, nil
	}
	l.pos = start
	return false, nil
}

// array reads an array and calls fn for each element; fn must consume it.
// Empty slots between commas are skipped.
func (l *lexer) array(fn func(i int) error) error {
	if l.peek() != '[' {
		return l.typeErr("array")
	}
	if err := l.enter(); err != nil {
		return err
	}
	l.pos++
	for i := 0; ; {
		switch l.peek() {
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
		if c := l.peek(); c != ',' && c != ']' {
			return l.syntaxErr("expected ',' or ']' in array")
		}
	}
}

// skip consumes one value of any type.
func (l *lexer) skip() error {
	switch l.peek() {
	case '{':
		return l.object(func(string) error { return l.skip() })
	case '[':
		return l.array(func(int) error { return l.skip() })
	}
	_, _, err := l.scalar()
	return err
}

// tokenKind is the type of a scalar token.
type tokenKind uint8

const (
	tokNull tokenKind = iota
	tokBool
	tokNumber
	tokString
)

// scalar reads a string, number, boolean or null and returns its kind and
// text (the unescaped contents for strings).
func (l *lexer) scalar() (tokenKind, string, error) {
	switch c := l.peek(); {
	case c == '"' || c == '\'':
		s, err := l.quoted()
		return tokString, s, err
	case c == '-' || (c >= '0' && c <= '9'):
		s, err := l.number()
		return tokNumber, s, err
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range [...]string{"true", "false", "null"} {
			if l.literal(lit) {
				if lit == "null" {
					return tokNull, "", nil
				}
				return tokBool, lit, nil
			}
		}
	case c == '{' || c == '[':
		return tokNull, "", l.typeErr("scalar")
	}
	return tokNull, "", l.syntaxErr("unexpected character")
}

// literal consumes word if the input continues with it as a whole token.
func (l *lexer) literal(word string) bool {
	end := l.pos + len(word)
	if end > len(l.data) || string(l.data[l.pos:end]) != word {
		return false
	}
	if end < len(l.data) && isBareKeyByte(l.data[end]) {
		return false
	}
	l.pos = end
	return true
}

// number reads -?digits[.digits][(e|E)[+-]digits] and returns its text.
// Leading zeros are accepted, as fastjson accepts them.
func (l *lexer) number() (string, error) {
	start := l.pos
	if l.data[l.pos] == '-' {
		l.pos++
	}
	if !l.digits() {
		return "", l.syntaxErr("malformed number")
	}
	if l.pos < len(l.data) && l.data[l.pos] == '.' {
		l.pos++
		if !l.digits() {
			return "", l.syntaxErr("malformed number")
		}
	}
	if l.pos < len(l.data) && (l.data[l.pos] == 'e' || l.data[l.pos] == 'E') {
		l.pos++
		if l.pos < len(l.data) && (l.data[l.pos] == '+' || l.data[l.pos] == '-') {
			l.pos++
		}
		if !l.digits() {
			return "", l.syntaxErr("malformed number")
		}
	}
	return string(l.data[start:l.pos]), nil
}

func (l *lexer) digits() bool {
	start := l.pos
	for l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '9' {
		l.pos++
	}
	return l.pos > start
}

// key reads an object key: a double- or single-quoted string, or a bare
// token such as 0, -1 or topicName (fastjson AllowUnQuotedFieldNames).
func (l *lexer) key() (string, error) {
	if c := l.peek(); c == '"' || c == '\'' {
		return l.quoted()
	}
	start := l.pos
	for l.pos < len(l.data) && isBareKeyByte(l.data[l.pos]) {
		l.pos++
	}
	if l.pos == start {
		return "", l.syntaxErr("expected object key")
	}
	return validUTF8(string(l.data[start:l.pos])), nil
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '$' || c == '-' || c == '+' || c == '.' || c >= utf8.RuneSelf
}

// quoted reads a string in double or single quotes and unescapes it.
func (l *lexer) quoted() (string, error) {
	q := l.data[l.pos]
	l.pos++
	start := l.pos
	for l.pos < len(l.data) {
		switch l.data[l.pos] {
		case q:
			s := string(l.data[start:l.pos])
			l.pos++
			return validUTF8(s), nil
		case '\\':
			return l.quotedSlow(q, start)
		}
		l.pos++
	}
	return "", l.syntaxErr("unterminated string")
}

// quotedSlow continues quoted from the first backslash.
func (l *lexer) quotedSlow(q byte, start int) (string, error) {
	buf := append([]byte(nil), l.data[start:l.pos]...)
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch {
		case c == q:
			l.pos++
			return validUTF8(string(buf)), nil
		case c != '\\':
			buf = append(buf, c)
			l.pos++
			continue
		}
		l.pos++
		if l.pos >= len(l.data) {
			break
		}
		e := l.data[l.pos]
		l.pos++
		switch e {
		case 'b':
			buf = append(buf, '\b')
		case 'f', 'F':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'v':
			buf = append(buf, '\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			buf = append(buf, e-'0')
		case 'x':
			v, ok := l.hex(2)
			if !ok {
				return "", l.syntaxErr("malformed \\x escape")
			}
			buf = utf8.AppendRune(buf, v)
		case 'u':
			r, err := l.unicodeEscape()
			if err != nil {
				return "", err
			}
			buf = utf8.AppendRune(buf, r)
		default: // \" \' \\ \/ and any other character stand for themselves
			buf = append(buf, e)
		}
	}
	return "", l.syntaxErr("unterminated string")
}

// unicodeEscape reads the XXXX of \uXXXX and, for a high surrogate, a
// following \uXXXX low surrogate. Lone surrogates become U+FFFD.
func (l *lexer) unicodeEscape() (rune, error) {
	u, ok := l.hex(4)
	if !ok {
		return 0, l.syntaxErr("malformed \\u escape")
	}
	if !utf16.IsSurrogate(u) {
		return u, nil
	}
	if u < 0xDC00 && l.pos+6 <= len(l.data) && l.data[l.pos] == '\\' && l.data[l.pos+1] == 'u' {
		save := l.pos
		l.pos += 2
		if lo, ok := l.hex(4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return utf16.DecodeRune(u, lo), nil
		}
		l.pos = save
	}
	return utf8.RuneError, nil
}

func (l *lexer) hex(n int) (rune, bool) {
	if l.pos+n > len(l.data) {
		return 0, false
	}
	var v rune
	for _, c := range l.data[l.pos : l.pos+n] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	l.pos += n
	return v, true
}

// validUTF8 replaces every invalid byte with U+FFFD, as Java's decoder and
// encoding/json do.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}
