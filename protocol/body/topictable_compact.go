package body

import (
	"math"

	"github.com/raftns/raftns/fsm/state"
)

// The topic table is most of a registration body, and brokers write it in
// one shape: fastjson's compact output, with no whitespace, every key and
// string in double quotes and without escapes, integers without fraction or
// exponent. scanCompactTopicTable reads a table of that shape in one pass
// over its bytes. At anything else it gives up, and the general lexer reads
// the table from its start, so what a body decodes to never depends on the
// path that read it (FuzzCompactTopicTable compares the two).

// compactDepth is how deep the compact scan nests: the table, a config and
// its attributes.
const compactDepth = 3

// compactTopicTable reads the topic table at the lexer's offset if it is
// compact; ok is false, with the offset unchanged, when it is not.
func (l *lexer) compactTopicTable() (configs []state.TopicConfig, ok bool) {
	if l.fj.DepthLeft() < compactDepth {
		return nil, false
	}
	configs, n, ok := scanCompactTopicTable(l.fj.Rest())
	if ok {
		l.fj.Advance(n)
	}
	return configs, ok
}

// compactScan is a cursor over a compact topic table.
type compactScan struct {
	b []byte
	i int
}

// scanCompactTopicTable reads the compact topic table at the start of b and
// returns its configs, as readTopicConfigTable would, and its length.
func scanCompactTopicTable(b []byte) (configs []state.TopicConfig, n int, ok bool) {
	s := compactScan{b: b}
	if !s.next('{') {
		return nil, 0, false
	}
	if s.next('}') {
		return nil, s.i, true
	}
	list := make([]state.TopicConfig, 0, topicTableStart)
	var index topicIndex
	for {
		key, ok := s.asciiString()
		// A leading "$ref" key can make the table read as empty (RefAsEmpty).
		if !ok || string(key) == "$ref" || !s.next(':') {
			return nil, 0, false
		}
		tc, ok := s.topicConfig(key)
		if !ok {
			return nil, 0, false
		}
		// The name is the key, as Java writes the table; a config named
		// otherwise was refused by topicConfig.
		tc.TopicName = string(key)
		list = index.put(list, tc.TopicName, tc)
		if s.next(',') {
			continue
		}
		if s.next('}') {
			return list, s.i, true
		}
		return nil, 0, false
	}
}

// topicConfig reads a TopicConfig whose topicName is key, with the Java
// defaults readTopicConfig gives missing fields, leaving TopicName unset.
// ok is false for a config without that name and for any field the compact
// shape does not cover, such as a null or quoted number.
func (s *compactScan) topicConfig(key []byte) (tc state.TopicConfig, ok bool) {
	tc = state.TopicConfig{ReadQueueNums: defaultQueueNums, WriteQueueNums: defaultQueueNums, Perm: defaultPerm}
	if !s.next('{') {
		return tc, false
	}
	named := false
	for !s.next('}') {
		field, ok := s.plainString()
		if !ok || !s.next(':') {
			return tc, false
		}
		switch string(field) {
		case "topicName":
			var name []byte
			name, ok = s.asciiString()
			ok = ok && len(name) > 0 && string(name) == string(key)
			named = true
		case "readQueueNums":
			tc.ReadQueueNums, ok = s.int32()
		case "writeQueueNums":
			tc.WriteQueueNums, ok = s.int32()
		case "perm":
			tc.Perm, ok = s.int32()
		case "topicSysFlag":
			tc.TopicSysFlag, ok = s.int32()
		default:
			ok = s.skipValue(true)
		}
		if !ok || !s.memberEnd() {
			return tc, false
		}
	}
	return tc, named
}

// at reports whether c comes next.
func (s *compactScan) at(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// next consumes c if it comes next.
func (s *compactScan) next(c byte) bool {
	if s.at(c) {
		s.i++
		return true
	}
	return false
}

// memberEnd consumes the comma after an object member, or sees the closing
// brace, which the caller's loop consumes.
func (s *compactScan) memberEnd() bool { return s.next(',') || s.at('}') }

// plainString reads a double-quoted string without escapes and returns its
// contents.
func (s *compactScan) plainString() ([]byte, bool) {
	if !s.next('"') {
		return nil, false
	}
	start := s.i
	for i, c := range s.b[start:] {
		switch c {
		case '"':
			s.i = start + i + 1
			return s.b[start : start+i], true
		case '\\':
			return nil, false
		}
	}
	return nil, false
}

// asciiString is plainString for printable ASCII only: text the general
// lexer keeps byte for byte, with no UTF-8 to repair.
func (s *compactScan) asciiString() ([]byte, bool) {
	text, ok := s.plainString()
	for _, c := range text {
		if c < ' ' || c > '~' {
			return nil, false
		}
	}
	return text, ok
}

// int32 reads a plain decimal (plainDecimal) in an int32's range, followed
// by no fraction or exponent.
func (s *compactScan) int32() (int32, bool) {
	start := s.i
	s.next('-')
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.at('.') || s.at('e') || s.at('E') {
		return 0, false
	}
	v, ok := plainDecimal(s.b[start:s.i])
	if !ok || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, false
	}
	return int32(v), true
}

// skipValue consumes a string, an integer, true, false or null, or, when
// object is set, an object of such values (a config's attributes).
func (s *compactScan) skipValue(object bool) bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, ok := s.plainString()
		return ok
	case c == '-' || c >= '0' && c <= '9':
		_, ok := s.int32()
		return ok
	case c == '{' && object:
		s.i++
		for !s.next('}') {
			if _, ok := s.plainString(); !ok || !s.next(':') || !s.skipValue(false) || !s.memberEnd() {
				return false
			}
		}
		return true
	}
	for _, word := range [...]string{"true", "false", "null"} {
		if end := s.i + len(word); end <= len(s.b) && string(s.b[s.i:end]) == word {
			s.i = end
			return true
		}
	}
	return false
}
