package remoting

import "unicode/utf8"

const upperHex = "0123456789ABCDEF"

// appendJSONString appends s as a quoted JSON string escaped the way fastjson
// does by default (protocol doc §4.1 item 6, FJ IOUtils
// specicalFlags_doubleQuotes): '"' and '\' escaped; \b \f \n \r \t short
// forms; other C0 controls, DEL and the C1 controls U+0080-U+009F as \u00XX
// with uppercase hex; U+2028 and U+2029 as \u2028 and \u2029; '/' and every
// other character raw. Invalid UTF-8 is written as U+FFFD so the output is
// always valid JSON.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7F {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendASCIIEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
		case r >= 0x80 && r <= 0x9F, r == 0x2028, r == 0x2029:
			dst = append(dst, s[start:i]...)
			dst = appendUnicodeEscape(dst, r)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendASCIIEscape(dst []byte, c byte) []byte {
	switch c {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
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
	return appendUnicodeEscape(dst, rune(c))
}

func appendUnicodeEscape(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u',
		upperHex[r>>12&0xF], upperHex[r>>8&0xF], upperHex[r>>4&0xF], upperHex[r&0xF])
}
