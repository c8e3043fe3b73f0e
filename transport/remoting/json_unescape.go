package remoting

import (
	"unicode/utf16"
	"unicode/utf8"
)

// readString reads a string delimited by quote. Without escapes the result
// aliases the input; otherwise it is unescaped into the scratch buffer.
func (l *jsonLexer) readString(quote byte) ([]byte, error) {
	start := l.pos + 1
	for i := start; i < len(l.b); i++ {
		switch l.b[i] {
		case quote:
			l.pos = i + 1
			return l.b[start:i], nil
		case '\\':
			return l.readEscapedString(quote, start, i)
		}
	}
	return nil, l.errorf("unterminated string")
}

func (l *jsonLexer) readEscapedString(quote byte, start, i int) ([]byte, error) {
	out := append(l.scratch[:0], l.b[start:i]...)
	for i < len(l.b) {
		c := l.b[i]
		if c == quote {
			l.pos = i + 1
			l.scratch = out
			return out, nil
		}
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		var err error
		if out, i, err = l.unescape(out, i+1); err != nil {
			return nil, err
		}
	}
	l.pos = i
	return nil, l.errorf("unterminated string")
}

// unescape appends the character of the escape sequence starting at b[i]
// (just after the backslash) and returns the index after it.
func (l *jsonLexer) unescape(out []byte, i int) ([]byte, int, error) {
	if i >= len(l.b) {
		l.pos = i
		return nil, i, l.errorf("unterminated string")
	}
	switch e := l.b[i]; e {
	case '"', '\\', '/', '\'':
		return append(out, e), i + 1, nil
	case 'b':
		return append(out, '\b'), i + 1, nil
	case 'f', 'F':
		return append(out, '\f'), i + 1, nil
	case 'n':
		return append(out, '\n'), i + 1, nil
	case 'r':
		return append(out, '\r'), i + 1, nil
	case 't':
		return append(out, '\t'), i + 1, nil
	case 'v':
		return append(out, '\v'), i + 1, nil
	case '0', '1', '2', '3', '4', '5', '6', '7':
		return append(out, e-'0'), i + 1, nil
	case 'x':
		v, ok := parseHex(l.b, i+1, 2)
		if !ok {
			l.pos = i
			return nil, i, l.errorf(`bad \x escape`)
		}
		return utf8.AppendRune(out, v), i + 3, nil
	case 'u':
		return l.unescapeUnicode(out, i)
	default:
		l.pos = i
		return nil, i, l.errorf("bad escape %q", e)
	}
}

// unescapeUnicode decodes \uXXXX, joining a surrogate pair when a second
// escape follows; a lone surrogate becomes U+FFFD.
func (l *jsonLexer) unescapeUnicode(out []byte, i int) ([]byte, int, error) {
	r, ok := parseHex(l.b, i+1, 4)
	if !ok {
		l.pos = i
		return nil, i, l.errorf(`bad \u escape`)
	}
	i += 5
	if utf16.IsSurrogate(r) && i+1 < len(l.b) && l.b[i] == '\\' && l.b[i+1] == 'u' {
		if r2, ok := parseHex(l.b, i+2, 4); ok {
			if joined := utf16.DecodeRune(r, r2); joined != utf8.RuneError {
				return utf8.AppendRune(out, joined), i + 6, nil
			}
		}
	}
	return utf8.AppendRune(out, r), i, nil // AppendRune writes U+FFFD for a surrogate
}

// parseHex parses n hex digits at b[i:].
func parseHex(b []byte, i, n int) (rune, bool) {
	if i+n > len(b) {
		return 0, false
	}
	var v rune
	for _, c := range b[i : i+n] {
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
	return v, true
}
