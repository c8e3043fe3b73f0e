package body

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// readAny reads any value into the shapes encoding/json produces with
// UseNumber: map[string]any, []any, string, json.Number, bool, nil.
func readAny(l *lexer) (any, error) {
	switch l.peek() {
	case '{':
		m := map[string]any{}
		err := l.object(func(key string) error {
			v, err := readAny(l)
			m[key] = v
			return err
		})
		return m, err
	case '[':
		a := []any{}
		err := l.array(func(int) error {
			v, err := readAny(l)
			a = append(a, v)
			return err
		})
		return a, err
	}
	kind, text, err := l.scalar()
	switch kind {
	case tokBool:
		return text == "true", err
	case tokNumber:
		return json.Number(text), err
	case tokString:
		return text, err
	}
	return nil, err
}

func parseAny(b []byte) (any, error) {
	l, err := newLexer(b)
	if err != nil {
		return nil, err
	}
	v, err := readAny(l)
	if err != nil {
		return nil, err
	}
	return v, l.finish()
}

func TestLexer_Lenient(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want any
	}{
		{"numeric bare keys", `{0:0,1:1}`, map[string]any{"0": json.Number("0"), "1": json.Number("1")}},
		{"negative bare key", `{-1:"x"}`, map[string]any{"-1": "x"}},
		{"identifier keys", `{code:105,$ref2:1,a_b.c:2}`, map[string]any{"code": json.Number("105"), "$ref2": json.Number("1"), "a_b.c": json.Number("2")}},
		{"single quotes", `{'a':'it"s'}`, map[string]any{"a": `it"s`}},
		{"escaped single quote", `['it\'s']`, []any{"it's"}},
		{"doubled and trailing commas", `{,"a":1,,"b":2,}`, map[string]any{"a": json.Number("1"), "b": json.Number("2")}},
		{"array commas", `[,1,,2,]`, []any{json.Number("1"), json.Number("2")}},
		{"ref only", `{"$ref":"$.a.b"}`, map[string]any{}},
		{"ref only with trailing comma", `{"$ref":"..",}`, map[string]any{}},
		{"ref nested", `{"a":{"$ref":"@"},"b":1}`, map[string]any{"a": map[string]any{}, "b": json.Number("1")}},
		{"ref not first is ordinary", `{"a":1,"$ref":"x"}`, map[string]any{"a": json.Number("1"), "$ref": "x"}},
		{"ref with siblings is ordinary", `{"$ref":"x","a":1}`, map[string]any{"$ref": "x", "a": json.Number("1")}},
		{"escapes", `"\b\f\n\r\t\/\\\"\u00e9\x41\v\0"`, "\b\f\n\r\t/\\\"éA\v\x00"},
		{"surrogate pair", `"\uD83D\uDE00"`, "😀"},
		{"lone high surrogate", `"\uD83Dx"`, "\uFFFDx"},
		{"lone low surrogate", `"\uDE00"`, "\uFFFD"},
		{"high then non-low escape", `"\uD83D\u0041"`, "\uFFFDA"},
		{"invalid UTF-8 replaced per byte", "\"a\xff\xfeb\"", "a\uFFFD\uFFFDb"},
		{"raw control char", "\"a\x01b\"", "a\x01b"},
		{"form feed whitespace", "\f{\b\"a\"\t:\r1\n}", map[string]any{"a": json.Number("1")}},
		{"leading zeros", `[007,-0.5e+3]`, []any{json.Number("007"), json.Number("-0.5e+3")}},
		{"literals", `[true,false,null]`, []any{true, false, nil}},
		{"duplicate keys keep last", `{"a":1,"a":2}`, map[string]any{"a": json.Number("2")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAny([]byte(tc.in))
			if err != nil {
				t.Fatalf("parse %s: %v", tc.in, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestLexer_Errors(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want error
	}{
		{"unterminated object", `{"a":1`, ErrSyntax},
		{"key without value", `{"a"}`, ErrSyntax},
		{"missing value", `{"a":}`, ErrSyntax},
		{"elements without comma", `[1 2]`, ErrSyntax},
		{"unterminated string", `"abc`, ErrSyntax},
		{"backslash at end", `"abc\`, ErrSyntax},
		{"short unicode escape", `"\u12"`, ErrSyntax},
		{"bad hex escape", `"\xZZ"`, ErrSyntax},
		{"partial literal", `tru`, ErrSyntax},
		{"literal glued to word", `nullx`, ErrSyntax},
		{"bare key with space", `{a b:1}`, ErrSyntax},
		{"number without digits", `-`, ErrSyntax},
		{"fraction without digits", `1.`, ErrSyntax},
		{"exponent without digits", `1e+`, ErrSyntax},
		{"number glued to word", `[01x]`, ErrSyntax},
		{"unexpected character", `@`, ErrSyntax},
		{"closing bracket mismatch", `[1}`, ErrSyntax},
		{"trailing data", `{}]`, ErrSyntax},
		{"too deep arrays", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), ErrTooDeep},
		{"too deep objects", strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1), ErrTooDeep},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseAny([]byte(tc.in))
			if !errors.Is(err, tc.want) {
				t.Fatalf("parse %q: err = %v, want %v", tc.in, err, tc.want)
			}
		})
	}
}

func TestLexer_MaxDepthAccepted(t *testing.T) {
	in := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if _, err := parseAny([]byte(in)); err != nil {
		t.Fatalf("depth %d: %v", maxDepth, err)
	}
}

func TestNewLexer_SizeLimit(t *testing.T) {
	if _, err := newLexer(make([]byte, maxJSONSize+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}
