package fastjson

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Mode selects which fastjson serializer configuration a writer mimics.
type Mode uint8

const (
	// Default is fastjson's default output (Java RemotingSerializable.encode,
	// and every RemotingCommand header): non-String map keys as bare numbers,
	// "/" and characters from U+00A0 on written raw, except U+2028 and U+2029.
	Default Mode = iota
	// Standard is the "standard JSON" route output (Java
	// TopicRouteData.encode(BrowserCompatible, QuoteFieldNames,
	// SkipTransientField, MapSortField)): every map key quoted, every map
	// sorted by key, "/" as \/ and every character from U+007F on as \uXXXX.
	Standard
)

// String returns the mode's name for logs.
func (m Mode) String() string {
	if m == Standard {
		return "Standard"
	}
	return "Default"
}

const hexDigits = "0123456789ABCDEF"

// AppendString appends s as a quoted JSON string escaped as fastjson's
// SerializeWriter.writeStringWithDoubleQuote does in mode m. Invalid UTF-8
// bytes are written as U+FFFD, as Java's UTF-8 decoder would have read them,
// so the output is always valid JSON.
func AppendString(dst []byte, s string, m Mode) []byte {
	dst = append(dst, '"')
	if m == Standard {
		dst = appendStandardEscaped(dst, s)
	} else {
		dst = appendDefaultEscaped(dst, s)
	}
	return append(dst, '"')
}

// appendDefaultEscaped escapes with fastjson's default table
// (IOUtils.specicalFlags_doubleQuotes): quote, backslash, C0 controls, DEL,
// the C1 controls U+0080-U+009F, U+2028 and U+2029.
func appendDefaultEscaped(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7F {
				i++
				continue
			}
			dst = appendASCIIEscape(append(dst, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), "\uFFFD"...)
		case r <= 0x9F || r == 0x2028 || r == 0x2029:
			dst = appendUnit(append(dst, s[start:i]...), uint16(r))
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// appendStandardEscaped escapes as fastjson's BrowserCompatible branch:
// quote, backslash, "/", C0 controls, and every UTF-16 unit from 0x7F on.
func appendStandardEscaped(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '/' && c != 0x7F {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			if c == '/' {
				dst = append(dst, '\\', '/')
			} else {
				dst = appendASCIIEscape(dst, c)
			}
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			dst = appendUnit(appendUnit(dst, uint16(hi)), uint16(lo))
		} else {
			dst = appendUnit(dst, uint16(r)) // RuneError for invalid bytes
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// appendASCIIEscape writes the escape of an ASCII character that both modes
// escape the same way.
func appendASCIIEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return appendUnit(dst, uint16(c))
}

// appendUnit writes one UTF-16 unit as \uXXXX with uppercase hex.
func appendUnit(dst []byte, u uint16) []byte {
	return append(dst, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&15], hexDigits[u>>4&15], hexDigits[u&15])
}
