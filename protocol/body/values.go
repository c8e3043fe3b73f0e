package body

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/raftns/raftns/protocol/fastjson"
)

// This file holds the typed readers the decoders use. They convert the way
// fastjson's TypeUtils casts do for the cases real peers produce: numbers and
// booleans are accepted where a String is expected, numeric strings where a
// number is expected, and null (or an empty string for numbers) leaves the
// Java default in place.

// optString reads a Java String field. ok is false for null.
func (l *lexer) optString() (s string, ok bool, err error) {
	if c := l.peek(); c == '{' || c == '[' {
		return "", false, l.typeErr("string")
	}
	kind, text, err := l.scalar()
	return text, err == nil && kind != fastjson.KindNull, err
}

// str reads a Java String field; null reads as "".
func (l *lexer) str() (string, error) {
	s, _, err := l.optString()
	return s, err
}

// strLike is str for a field whose text is usually same: then it returns
// same instead of a copy of the text.
func (l *lexer) strLike(same string) (string, error) {
	if c := l.peek(); c == '{' || c == '[' {
		return "", l.typeErr("string")
	}
	kind, raw, err := l.fj.Scalar()
	switch {
	case err != nil:
		return "", jsonErr(err)
	case kind == fastjson.KindString && string(raw) == same:
		return same, nil // same is valid UTF-8, so raw is too
	}
	return scalarText(kind, raw), nil
}

// optInt reads a Java int or long field within [min, max]. ok is false for
// null and for an empty or "null" string.
func (l *lexer) optInt(min, max int64) (v int64, ok bool, err error) {
	if c := l.peek(); c == '{' || c == '[' || c == 't' || c == 'f' {
		return 0, false, l.typeErr("integer")
	}
	at := l.fj.Offset()
	// Plain decimals, nearly every number a body carries, are read in one
	// pass without making a string of them.
	if v, raw, ok := l.fj.PlainInt(); ok {
		if v < min || v > max {
			return 0, false, fmt.Errorf("%w: %.40q at offset %d", ErrRange, raw, at)
		}
		return v, true, nil
	}
	kind, raw, err := l.fj.Scalar()
	if err != nil || kind == fastjson.KindNull {
		return 0, false, jsonErr(err)
	}
	if v, ok := plainDecimal(raw); ok { // a numeric string
		if v < min || v > max {
			return 0, false, fmt.Errorf("%w: %.40q at offset %d", ErrRange, raw, at)
		}
		return v, true, nil
	}
	text := scalarText(kind, raw)
	if kind == fastjson.KindString && (text == "" || text == "null") {
		return 0, false, nil
	}
	v, err = strconv.ParseInt(text, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange), err == nil && (v < min || v > max):
		return 0, false, fmt.Errorf("%w: %.40q at offset %d", ErrRange, text, at)
	case err != nil:
		return 0, false, fmt.Errorf("%w: want integer, got %.40q at offset %d", ErrType, text, at)
	}
	return v, true, nil
}

// plainDecimal reads what fastjson.PlainDecimal reads; anything else the
// caller parses with strconv.
func plainDecimal(b []byte) (int64, bool) { return fastjson.PlainDecimal(b) }

// int32v reads a Java int field; null leaves def.
func (l *lexer) int32v(def int32) (int32, error) {
	v, ok, err := l.optInt(math.MinInt32, math.MaxInt32)
	if !ok {
		return def, err
	}
	return int32(v), nil
}

// int32Prop reads the Java int property name into *dst, def for null; an
// error names the property.
func (l *lexer) int32Prop(name string, dst *int32, def int32) error {
	var err error
	*dst, err = l.int32v(def)
	return atPath(name, err)
}

// int64v reads a Java long field; null leaves def.
func (l *lexer) int64v(def int64) (int64, error) {
	v, ok, err := l.optInt(math.MinInt64, math.MaxInt64)
	if !ok {
		return def, err
	}
	return v, nil
}

// boolv reads a Java boolean field: true/false, the strings "true"/"false"
// in any case, and 1/0 as number or string. null leaves def.
func (l *lexer) boolv(def bool) (bool, error) {
	if c := l.peek(); c == '{' || c == '[' {
		return false, l.typeErr("boolean")
	}
	at := l.fj.Offset()
	kind, text, err := l.scalar()
	if err != nil || kind == fastjson.KindNull || (kind == fastjson.KindString && text == "") {
		return def, err
	}
	switch {
	case strings.EqualFold(text, "true") || text == "1":
		return true, nil
	case strings.EqualFold(text, "false") || text == "0":
		return false, nil
	}
	return false, fmt.Errorf("%w: want boolean, got %.40q at offset %d", ErrType, text, at)
}

// stringList reads a JSON array of Java Strings; null elements are dropped
// (fastjson keeps them, but no peer sends them and Go has no null string).
// A null array gives nil, an empty one a non-nil empty slice.
func (l *lexer) stringList() ([]string, error) {
	if l.isNull() {
		return nil, nil
	}
	out := []string{}
	err := l.array(func(i int) error {
		s, ok, err := l.optString()
		if ok {
			out = append(out, s)
		}
		return atPath("["+strconv.Itoa(i)+"]", err)
	})
	return out, err
}

// stringMap reads an object of Java Strings; null values are dropped, as
// fastjson drops them when it writes the map again.
func (l *lexer) stringMap() (map[string]string, error) {
	out := map[string]string{}
	if l.isNull() {
		return out, nil
	}
	err := l.object(func(key string) error {
		s, ok, err := l.optString()
		if ok {
			out[key] = s
		}
		return atPath(key, err)
	})
	return out, err
}

// parseIntKey converts an object key to a Long or Integer map key the way
// fastjson does for Map<Long,...>: "0" and 0 both give 0.
func parseIntKey(key string, min, max int64) (int64, error) {
	v, err := strconv.ParseInt(key, 10, 64)
	if errors.Is(err, strconv.ErrRange) || err == nil && (v < min || v > max) {
		return 0, fmt.Errorf("%w: map key %.40q", ErrRange, key)
	}
	if err != nil {
		return 0, fmt.Errorf("%w: want integer map key, got %.40q", ErrType, key)
	}
	return v, nil
}
