package remoting

import (
	"math"
	"slices"
	"strconv"

	"github.com/raftns/raftns/protocol/fastjson"
)

// headerJSON is how headers are read: fastjson's default parser (docs/contributors/protocol.md,
// "fastjson rules"), which rejects unknown escapes and gives "$ref" no meaning.
var headerJSON = fastjson.Config{}

// decodeJSONHeader parses a JSON header into c following docs/contributors/protocol.md, "JSON headers":
// keys in any order, unknown keys skipped, missing code/version/flag/opaque
// = 0, missing or null language = JAVA, null remark = "", extFields values
// that are numbers or booleans kept as their text and null values dropped.
// serializeTypeCurrentRPC is ignored: the frame's type byte is authoritative.
func decodeJSONHeader(b []byte, c *Command) error {
	var l fastjson.Lexer
	if err := l.Reset(b, headerJSON); err != nil {
		return headerErr(err)
	}
	err := readObject(&l, func(key []byte) error {
		switch string(key) {
		case "code":
			return readInt32(&l, &c.Code)
		case "version":
			return readInt32(&l, &c.Version)
		case "opaque":
			return readInt32(&l, &c.Opaque)
		case "flag":
			return readInt32(&l, &c.Flag)
		case "language":
			v, kind, err := l.RawValue()
			if err == nil && kind != fastjson.KindNull {
				c.Language = internLanguage(v)
			}
			return err
		case "remark":
			v, kind, err := l.RawValue()
			if err == nil && kind != fastjson.KindNull {
				c.Remark = toValidString(v)
			}
			return err
		case "extFields":
			return readExtFields(&l, c)
		}
		_, _, err := l.RawValue()
		return err
	})
	if err != nil {
		return headerErr(err)
	}
	if !l.AtEnd() {
		return jsonErr(l.Offset(), "data after the header object")
	}
	if c.Language == "" {
		c.Language = LanguageJava
	}
	return nil
}

// readObject reads an object, calling fn with the lexer at each member's
// value; anything but an object is the header error "expected '{'".
func readObject(l *fastjson.Lexer, fn func(key []byte) error) error {
	if l.Peek() != '{' {
		return jsonErr(l.Offset(), "expected '{'")
	}
	return l.Object(fn)
}

// readInt32 reads an integer member. A quoted number is accepted as fastjson
// does; null leaves 0.
func readInt32(l *fastjson.Lexer, dst *int32) error {
	start := l.Offset()
	v, kind, err := l.RawValue()
	if err != nil {
		return err
	}
	switch kind {
	case fastjson.KindNull:
		*dst = 0
		return nil
	case fastjson.KindNumber, fastjson.KindString:
		if n, ok := parseInt32(v); ok {
			*dst = n
			return nil
		}
	}
	return jsonErr(start, "expected an int32, found %.20q", v)
}

// readExtFields reads the extFields member: null, or an object whose values
// become strings (fastjson converts numbers and booleans to their text; a
// nested object or array is kept as its raw text) and whose null values mean
// an absent key.
func readExtFields(l *fastjson.Lexer, c *Command) error {
	if l.Peek() != '{' && !l.AtEnd() {
		_, kind, err := l.RawValue()
		if err == nil && kind != fastjson.KindNull {
			return jsonErr(l.Offset(), "extFields is not an object")
		}
		c.ExtFields = nil
		return err
	}
	m := make(map[string]string, 4)
	err := readObject(l, func(key []byte) error {
		k := internExtKey(key)
		v, kind, err := l.RawValue()
		switch {
		case err != nil:
			return err
		case kind == fastjson.KindNull:
			delete(m, k)
		default:
			m[k] = toValidString(v)
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.ExtFields = m
	return nil
}

// commonExtKeys are request header field names that recur on every hot
// request; interning them saves an allocation per request.
var commonExtKeys = [...]string{
	"topic", "brokerName", "brokerAddr", "clusterName", "brokerId",
	"namespace", "key", "value", "haServerAddr", "compressed", "bodyCrc32",
	"acceptStandardJsonOnly", "cluster",
}

func internExtKey(b []byte) string {
	for _, k := range commonExtKeys {
		if string(b) == k {
			return k
		}
	}
	return toValidString(b)
}

// appendJSONHeader appends c's header as fastjson writes a RemotingCommand
// (docs/contributors/protocol.md, "JSON headers" and "fastjson rules"): compact, properties in alphabetical order,
// remark omitted when empty, extFields omitted when nil and with sorted
// string values otherwise, serializeTypeCurrentRPC "JSON". Strings are
// escaped as fastjson does by default (docs/contributors/protocol.md, "fastjson rules"): fastjson.Default.
func appendJSONHeader(dst []byte, c *Command) ([]byte, error) {
	if c.IsResponse() && (c.Code < math.MinInt16 || c.Code > math.MaxInt16) {
		return dst, ErrCodeRange // GO reads a response code into an int16
	}
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(c.Code), 10)
	if c.ExtFields != nil {
		dst = append(dst, `,"extFields":`...)
		dst = appendJSONStringMap(dst, c.ExtFields)
	}
	dst = append(dst, `,"flag":`...)
	dst = strconv.AppendInt(dst, int64(c.Flag), 10)
	dst = append(dst, `,"language":`...)
	lang := c.Language
	if lang == "" {
		lang = LanguageJava
	}
	dst = fastjson.AppendString(dst, lang, fastjson.Default)
	dst = append(dst, `,"opaque":`...)
	dst = strconv.AppendInt(dst, int64(c.Opaque), 10)
	if c.Remark != "" {
		dst = append(dst, `,"remark":`...)
		dst = fastjson.AppendString(dst, c.Remark, fastjson.Default)
	}
	dst = append(dst, `,"serializeTypeCurrentRPC":"JSON","version":`...)
	dst = strconv.AppendInt(dst, int64(c.Version), 10)
	return append(dst, '}'), nil
}

// appendJSONStringMap writes m as an object with keys in byte order. Java's
// HashMap order is arbitrary; sorting makes the output deterministic.
func appendJSONStringMap(dst []byte, m map[string]string) []byte {
	var small [16]string
	dst = append(dst, '{')
	for i, k := range sortedKeys(m, small[:0]) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = fastjson.AppendString(dst, k, fastjson.Default)
		dst = append(dst, ':')
		dst = fastjson.AppendString(dst, m[k], fastjson.Default)
	}
	return append(dst, '}')
}

// sortedKeys appends m's keys to keys and sorts them. Callers pass a stack
// array so that small maps (every real header) sort without allocating.
func sortedKeys(m map[string]string, keys []string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
