package body

import (
	"fmt"

	"github.com/raftns/raftns/protocol/fastjson"
)

// bodyJSON is how bodies are read: fastjson's lenient parser, plus a
// backslash before any character reading as that character, and an object
// whose only key is "$ref" reading as empty (a fastjson back-reference; docs/contributors/protocol.md, "fastjson rules").
var bodyJSON = fastjson.Config{AnyEscape: true, RefAsEmpty: true}

// lexer adapts fastjson.Lexer to the decoders: keys and strings come as
// valid UTF-8 Go strings, and errors under this package's sentinels.
// Callers consume values through object, array, skip and the scalar readers
// in values.go.
type lexer struct {
	fj fastjson.Lexer
}

func newLexer(b []byte) (*lexer, error) {
	l := &lexer{}
	if err := l.fj.Reset(b, bodyJSON); err != nil {
		return nil, jsonErr(err)
	}
	return l, nil
}

// jsonErr restates an error of the fastjson lexer under the matching
// sentinel of this package with the same detail; other errors, such as the
// decoders' own that pass through object and array, come back unchanged.
func jsonErr(err error) error {
	e, ok := err.(*fastjson.Error)
	if !ok {
		return err
	}
	sentinel := ErrSyntax
	switch e.Err {
	case fastjson.ErrType:
		sentinel = ErrType
	case fastjson.ErrTooDeep:
		sentinel = ErrTooDeep
	case fastjson.ErrTooLarge:
		sentinel = ErrTooLarge
	}
	return fmt.Errorf("%w: %s", sentinel, e.Detail())
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (l *lexer) peek() byte { return l.fj.Peek() }

// atEnd reports whether only whitespace is left.
func (l *lexer) atEnd() bool { return l.fj.AtEnd() }

// finish fails unless only whitespace is left.
func (l *lexer) finish() error { return jsonErr(l.fj.Finish()) }

// isNull consumes a null literal if one comes next.
func (l *lexer) isNull() bool { return l.fj.IsNull() }

// object reads an object and calls fn for each member; fn must consume the
// member's value. An object whose only key is "$ref" reads as empty.
func (l *lexer) object(fn func(key string) error) error {
	return jsonErr(l.fj.Object(func(key []byte) error { return fn(keyString(key)) }))
}

// objectBytes is object with each key as the lexer read it, valid until fn
// reads the member's value, for decoders that match keys without making
// strings of them.
func (l *lexer) objectBytes(fn func(key []byte) error) error { return jsonErr(l.fj.Object(fn)) }

// keyString returns an object key as a string. The property names of the
// bodies this package reads, and the ones Java adds that it skips, are
// returned as constants: a registration has a dozen keys per topic, and a
// switch on them neither allocates nor hashes.
func keyString(key []byte) string {
	switch string(key) {
	case "attributes":
		return "attributes"
	case "bname":
		return "bname"
	case "brokerAddr":
		return "brokerAddr"
	case "brokerAddrs":
		return "brokerAddrs"
	case "brokerDatas":
		return "brokerDatas"
	case "brokerName":
		return "brokerName"
	case "cluster":
		return "cluster"
	case "counter":
		return "counter"
	case "currIdMap":
		return "currIdMap"
	case "dataVersion":
		return "dataVersion"
	case "dirty":
		return "dirty"
	case "enableActingMaster":
		return "enableActingMaster"
	case "epoch":
		return "epoch"
	case "filterServerList":
		return "filterServerList"
	case "filterServerTable":
		return "filterServerTable"
	case "order":
		return "order"
	case "orderTopicConf":
		return "orderTopicConf"
	case "perm":
		return "perm"
	case "queueDatas":
		return "queueDatas"
	case "readQueueNums":
		return "readQueueNums"
	case "scope":
		return "scope"
	case "stateVersion":
		return "stateVersion"
	case "timestamp":
		return "timestamp"
	case "topic":
		return "topic"
	case "topicConfigSerializeWrapper":
		return "topicConfigSerializeWrapper"
	case "topicConfigTable":
		return "topicConfigTable"
	case "topicFilterType":
		return "topicFilterType"
	case "topicList":
		return "topicList"
	case "topicMessageType":
		return "topicMessageType"
	case "topicName":
		return "topicName"
	case "topicQueueMappingByBroker":
		return "topicQueueMappingByBroker"
	case "topicQueueMappingInfoMap":
		return "topicQueueMappingInfoMap"
	case "topicSysFlag":
		return "topicSysFlag"
	case "totalQueues":
		return "totalQueues"
	case "writeQueueNums":
		return "writeQueueNums"
	case "zoneName":
		return "zoneName"
	}
	return fastjson.ValidString(key)
}

// array reads an array and calls fn for each element; fn must consume it.
// Empty slots between commas are skipped.
func (l *lexer) array(fn func(i int) error) error { return jsonErr(l.fj.Array(fn)) }

// skip consumes one value of any type.
func (l *lexer) skip() error { return jsonErr(l.fj.Skip()) }

// scalar reads a string, number, boolean or null and returns its kind and
// text (the unescaped contents for strings, "" for null).
func (l *lexer) scalar() (fastjson.Kind, string, error) {
	kind, raw, err := l.fj.Scalar()
	if err != nil {
		return kind, "", jsonErr(err)
	}
	return kind, scalarText(kind, raw), nil
}

// scalarText is the text of a scalar the lexer read as raw.
func scalarText(kind fastjson.Kind, raw []byte) string {
	switch {
	case kind == fastjson.KindBool && raw[0] == 't':
		return "true"
	case kind == fastjson.KindBool:
		return "false"
	case kind == fastjson.KindNumber:
		return string(raw) // ASCII by the number grammar
	}
	return fastjson.ValidString(raw)
}

// typeErr reports that the next value is not of the wanted type.
func (l *lexer) typeErr(want string) error { return jsonErr(l.fj.TypeErr(want)) }

// syntaxErr reports malformed JSON at the current offset.
func (l *lexer) syntaxErr(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrSyntax, what, l.fj.Offset())
}
