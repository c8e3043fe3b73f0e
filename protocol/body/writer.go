package body

import "github.com/raftns/raftns/protocol/fastjson"

// Mode selects which fastjson serializer configuration an encoder mimics. It
// is fastjson.Mode, so modes pass between the two packages unconverted.
type Mode = fastjson.Mode

const (
	// Default is fastjson's default output (Java RemotingSerializable.encode):
	// non-String map keys as bare numbers, "/" and characters from U+00A0 on
	// written raw, except U+2028 and U+2029.
	Default = fastjson.Default
	// Standard is the "standard JSON" route output (Java
	// TopicRouteData.encode(BrowserCompatible, QuoteFieldNames,
	// SkipTransientField, MapSortField)): every map key quoted, every map
	// sorted by key, "/" as \/ and every character from U+007F on as \uXXXX.
	Standard = fastjson.Standard
)

// AppendString appends s as a quoted JSON string escaped as fastjson's
// SerializeWriter.writeStringWithDoubleQuote does in mode m. Invalid UTF-8
// bytes are written as U+FFFD, as Java's UTF-8 decoder would have read them.
// It is fastjson.AppendString.
func AppendString(dst []byte, s string, m Mode) []byte { return fastjson.AppendString(dst, s, m) }

// AppendKey appends a String map key or property name followed by ':'. It
// is fastjson.AppendKey.
func AppendKey(dst []byte, key string, m Mode) []byte { return fastjson.AppendKey(dst, key, m) }

// AppendNumberKey appends a non-String (Long or Integer) map key followed by
// ':': a bare number in Default mode, a quoted one in Standard mode. It is
// fastjson.AppendNumberKey.
func AppendNumberKey(dst []byte, key int64, m Mode) []byte {
	return fastjson.AppendNumberKey(dst, key, m)
}

// AppendLong appends a Java long value. Standard mode quotes values beyond
// ±(2^53-1), as fastjson's BrowserCompatible feature does. It is
// fastjson.AppendLong.
func AppendLong(dst []byte, v int64, m Mode) []byte { return fastjson.AppendLong(dst, v, m) }

// appendObject writes a JSON object with one member per element of items,
// in their order; member writes an element's key and value.
func appendObject[T any](dst []byte, items []T, member func(dst []byte, item *T) []byte) []byte {
	dst = append(dst, '{')
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = member(dst, &items[i])
	}
	return append(dst, '}')
}
