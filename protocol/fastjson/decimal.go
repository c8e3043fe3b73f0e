package fastjson

// PlainDecimal parses an optional '-' and 1 to 18 decimal digits (never out
// of an int64's range) as strconv.ParseInt does in base 10; ok is false for
// anything else, which callers parse with strconv or refuse.
func PlainDecimal(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}
