package fastjson

import "strconv"

// maxSafeLong is 2^53-1; fastjson's BrowserCompatible mode writes longs
// beyond ±maxSafeLong as strings (SerializeWriter.writeLong).
const maxSafeLong = 1<<53 - 1

// AppendKey appends a String map key or property name followed by ':'.
func AppendKey(dst []byte, key string, m Mode) []byte {
	return append(AppendString(dst, key, m), ':')
}

// AppendNumberKey appends a non-String (Long or Integer) map key followed by
// ':': a bare number in Default mode, a quoted one in Standard mode.
func AppendNumberKey(dst []byte, key int64, m Mode) []byte {
	if m == Standard {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, key, 10)
		return append(dst, '"', ':')
	}
	return append(strconv.AppendInt(dst, key, 10), ':')
}

// AppendLong appends a Java long value. Standard mode quotes values beyond
// ±(2^53-1), as fastjson's BrowserCompatible feature does.
func AppendLong(dst []byte, v int64, m Mode) []byte {
	if m == Standard && (v > maxSafeLong || v < -maxSafeLong) {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, v, 10)
		return append(dst, '"')
	}
	return strconv.AppendInt(dst, v, 10)
}

// AppendInt appends a Java int value, the same in both modes.
func AppendInt(dst []byte, v int32) []byte { return strconv.AppendInt(dst, int64(v), 10) }

// AppendBool appends a Java boolean value, the same in both modes.
func AppendBool(dst []byte, v bool) []byte { return strconv.AppendBool(dst, v) }
