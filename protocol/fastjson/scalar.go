package fastjson

// Kind is the JSON type of a value a Lexer read.
type Kind uint8

const (
	// KindNull is the literal null.
	KindNull Kind = iota
	// KindBool is true or false; the text is the literal.
	KindBool
	// KindNumber is a number; RawValue also gives it for any other bare
	// token, such as an identifier.
	KindNumber
	// KindString is a string; the text is its unescaped contents.
	KindString
	// KindRaw is an object or array that RawValue returns as its raw text.
	KindRaw
)

// Scalar reads a string, number, boolean or null and returns its kind and
// text: the unescaped contents for a string, nil for null. Numbers follow
// JSON's grammar with leading zeros allowed, as fastjson allows them; an
// object or array gives ErrType.
func (l *Lexer) Scalar() (Kind, []byte, error) {
	switch c := l.Peek(); {
	case c == '"' || c == '\'':
		s, err := l.readString(c)
		return KindString, s, err
	case c == '-' || (c >= '0' && c <= '9'):
		s, err := l.number()
		return KindNumber, s, err
	case c == 't' || c == 'f':
		start := l.pos
		if l.literal("true") || l.literal("false") {
			return KindBool, l.data[start:l.pos], nil
		}
	case c == 'n':
		if l.literal("null") {
			return KindNull, nil, nil
		}
	case c == '{' || c == '[':
		return KindNull, nil, l.TypeErr("scalar")
	}
	return KindNull, nil, l.syntaxErr("unexpected character")
}

// IsNull consumes a null literal if one comes next.
func (l *Lexer) IsNull() bool {
	return l.Peek() == 'n' && l.literal("null")
}

// literal consumes word if the input continues with it as a whole token.
func (l *Lexer) literal(word string) bool {
	end := l.pos + len(word)
	if end > len(l.data) || string(l.data[l.pos:end]) != word {
		return false
	}
	if end < len(l.data) && isBareByte(l.data[end]) {
		return false
	}
	l.pos = end
	return true
}

// PlainInt reads a number that is an optional '-' and 1 to 18 digits
// with no fraction or exponent (what number reads and PlainDecimal takes),
// and returns its value and text. For anything else ok is false and the
// offset is unchanged, and the caller reads the value with Scalar.
func (l *Lexer) PlainInt() (v int64, raw []byte, ok bool) {
	if l.pos >= len(l.data) || l.data[l.pos] != '-' && (l.data[l.pos] < '0' || l.data[l.pos] > '9') {
		return 0, nil, false
	}
	start := l.pos
	raw, err := l.number()
	if err == nil {
		v, ok = PlainDecimal(raw)
	}
	if !ok {
		l.pos = start
		return 0, nil, false
	}
	return v, raw, true
}

// number reads -?digits[.digits][(e|E)[+-]digits] and returns its text.
// Leading zeros are accepted, as fastjson accepts them.
func (l *Lexer) number() ([]byte, error) {
	start := l.pos
	if l.data[l.pos] == '-' {
		l.pos++
	}
	if !l.digits() {
		return nil, l.syntaxErr("malformed number")
	}
	if l.pos < len(l.data) && l.data[l.pos] == '.' {
		l.pos++
		if !l.digits() {
			return nil, l.syntaxErr("malformed number")
		}
	}
	if l.pos < len(l.data) && (l.data[l.pos] == 'e' || l.data[l.pos] == 'E') {
		l.pos++
		if l.pos < len(l.data) && (l.data[l.pos] == '+' || l.data[l.pos] == '-') {
			l.pos++
		}
		if !l.digits() {
			return nil, l.syntaxErr("malformed number")
		}
	}
	return l.data[start:l.pos], nil
}

func (l *Lexer) digits() bool {
	start := l.pos
	for l.pos < len(l.data) && l.data[l.pos] >= '0' && l.data[l.pos] <= '9' {
		l.pos++
	}
	return l.pos > start
}

// TypeErr returns the error for a next value that is not of the JSON type
// want: ErrType naming the type found, or ErrSyntax when no value starts
// there.
func (l *Lexer) TypeErr(want string) error {
	var got string
	switch c := l.Peek(); {
	case c == 0 && l.pos >= len(l.data):
		return l.syntaxErr("want " + want)
	case c == '{':
		got = "object"
	case c == '[':
		got = "array"
	case c == '"' || c == '\'':
		got = "string"
	case c == 't' || c == 'f':
		got = "boolean"
	case c == 'n':
		got = "null"
	case c == '-' || c >= '0' && c <= '9':
		got = "number"
	default:
		return l.syntaxErr("unexpected character")
	}
	return &Error{Err: ErrType, Msg: "want " + want + ", got " + got, Offset: l.pos}
}
