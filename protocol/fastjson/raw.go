package fastjson

import "fmt"

// RawValue reads any value the lenient way the JSON header decoder always
// has: a string comes back unescaped; an object or array comes back as its
// raw text, with only its strings checked and its brackets counted, not
// matched; any other run of bare-token bytes is null, true, false, or else
// KindNumber, whatever its text (fastjson reads such tokens as numbers or
// identifiers). It does not count towards the depth limit.
func (l *Lexer) RawValue() ([]byte, Kind, error) {
	c := l.Peek()
	if l.pos >= len(l.data) {
		return nil, KindNull, l.syntaxErr("expected value")
	}
	switch c {
	case '"', '\'':
		s, err := l.readString(c)
		return s, KindString, err
	case '{', '[':
		start := l.pos
		err := l.skipRaw()
		return l.data[start:l.pos], KindRaw, err
	}
	tok := l.bare()
	switch string(tok) {
	case "":
		return nil, KindNull, l.syntaxErr(fmt.Sprintf("unexpected %q", l.data[l.pos]))
	case "null":
		return nil, KindNull, nil
	case "true", "false":
		return tok, KindBool, nil
	}
	return tok, KindNumber, nil
}

// skipRaw skips a bracketed value by counting brackets outside strings.
func (l *Lexer) skipRaw() error {
	depth := 0
	for l.pos < len(l.data) {
		switch c := l.data[l.pos]; c {
		case '"', '\'':
			if _, err := l.readString(c); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				l.pos++
				return nil
			}
		}
		l.pos++
	}
	return l.syntaxErr("unterminated object or array")
}
