package fastjson

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// readString reads the string whose opening quote q, double or single, is
// at the current offset. Without escapes the result aliases the input;
// otherwise it is unescaped into the scratch buffer. Raw control characters
// and invalid UTF-8 are kept as they are.
func (l *Lexer) readString(q byte) ([]byte, error) {
	start := l.pos + 1
	// Ranging over the rest keeps the loop free of bounds checks; this scan
	// is most of the time spent decoding a header.
	for i, c := range l.data[start:] {
		if c == q {
			l.pos = start + i + 1
			return l.data[start : start+i], nil
		}
		if c == '\\' {
			l.pos = start + i
			return l.readEscaped(q, start)
		}
	}
	l.pos = len(l.data)
	return nil, l.syntaxErr("unterminated string")
}

// readEscaped continues readString from the first backslash.
func (l *Lexer) readEscaped(q byte, start int) ([]byte, error) {
	buf := append(l.scratch[:0], l.data[start:l.pos]...)
	for l.pos < len(l.data) {
		c := l.data[l.pos]
		switch {
		case c == q:
			l.pos++
			l.scratch = buf
			return buf, nil
		case c != '\\':
			buf = append(buf, c)
			l.pos++
			continue
		}
		l.pos++
		var err error
		if buf, err = l.unescape(buf); err != nil {
			return nil, err
		}
	}
	return nil, l.syntaxErr("unterminated string")
}

// unescape appends the character of the escape whose letter is at the
// current offset, just after the backslash, and moves past it.
func (l *Lexer) unescape(buf []byte) ([]byte, error) {
	if l.pos >= len(l.data) {
		return buf, l.syntaxErr("unterminated string")
	}
	e := l.data[l.pos]
	l.pos++
	switch e {
	case '"', '\\', '/', '\'':
		return append(buf, e), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f', 'F':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'v':
		return append(buf, '\v'), nil
	case '0', '1', '2', '3', '4', '5', '6', '7':
		return append(buf, e-'0'), nil
	case 'x':
		v, ok := l.hex(2)
		if !ok {
			return buf, l.syntaxErr(`bad \x escape`)
		}
		return utf8.AppendRune(buf, v), nil
	case 'u':
		r, err := l.unicodeEscape()
		if err != nil {
			return buf, err
		}
		return utf8.AppendRune(buf, r), nil
	}
	if !l.cfg.AnyEscape {
		l.pos--
		return buf, l.syntaxErr(fmt.Sprintf("bad escape %q", e))
	}
	return append(buf, e), nil
}

// unicodeEscape reads the XXXX of \uXXXX and, for a high surrogate, a
// following \uXXXX low surrogate. Lone surrogates become U+FFFD.
func (l *Lexer) unicodeEscape() (rune, error) {
	u, ok := l.hex(4)
	if !ok {
		return 0, l.syntaxErr(`bad \u escape`)
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

// hex reads n hex digits.
func (l *Lexer) hex(n int) (rune, bool) {
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
