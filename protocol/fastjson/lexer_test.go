package fastjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

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
		{"too deep arrays", strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1), ErrTooDeep},
		{"too deep objects", strings.Repeat(`{"a":`, DefaultMaxDepth+1) + "1" + strings.Repeat("}", DefaultMaxDepth+1), ErrTooDeep},
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
	in := strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth)
	if _, err := parseAny([]byte(in)); err != nil {
		t.Fatalf("depth %d: %v", DefaultMaxDepth, err)
	}
}

func TestLexer_ResetSizeLimit(t *testing.T) {
	var l Lexer
	if err := l.Reset(make([]byte, DefaultMaxSize+1), bodyConfig); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// TestLexer_Config covers each Config field: the escapes the header reader
// rejects and the body reader accepts, "$ref" handling, and the limits.
func TestLexer_Config(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		cfg     Config
		want    any
		wantErr error
		detail  string // the error's Detail, when wantErr is set
	}{
		{"fastjson escapes in strict mode", `"\x41\v\0\7\F\'\/"`, Config{}, "A\v\x00\x07\f'/", nil, ""},
		{"unknown escape rejected", `"a\qb"`, Config{}, nil, ErrSyntax, `bad escape 'q' at offset 3`},
		{"unknown escape read as itself", `"a\qb"`, Config{AnyEscape: true}, "aqb", nil, ""},
		{"unknown escape in a key", `{"\q":1}`, Config{}, nil, ErrSyntax, `bad escape 'q' at offset 3`},
		{"ref ordinary without RefAsEmpty", `{"$ref":"$.a"}`, Config{}, map[string]any{"$ref": "$.a"}, nil, ""},
		{"ref only with RefAsEmpty", `{"$ref":"$.a"}`, Config{RefAsEmpty: true}, map[string]any{}, nil, ""},
		// The look-ahead past the value reuses the scratch buffer that held
		// the escaped key; the key must still read as "$ref".
		{"escaped ref key survives the look-ahead", `{"$r\u0065f":"a\nb","x":1}`, Config{RefAsEmpty: true},
			map[string]any{"$ref": "a\nb", "x": json.Number("1")}, nil, ""},
		{"depth at the limit", `[{"a":1}]`, Config{MaxDepth: 2}, []any{map[string]any{"a": json.Number("1")}}, nil, ""},
		{"depth over the limit", `[[[1]]]`, Config{MaxDepth: 2}, nil, ErrTooDeep, "more than 2 levels at offset 2"},
		{"size at the limit", `[1]`, Config{MaxSize: 3}, []any{json.Number("1")}, nil, ""},
		{"size over the limit", `[10]`, Config{MaxSize: 3}, nil, ErrTooLarge, "4 bytes of JSON, limit 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse([]byte(tc.in), tc.cfg)
			if tc.wantErr != nil {
				var e *Error
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &e) || e.Detail() != tc.detail {
					t.Fatalf("parse %s: err = %v, want %v with detail %q", tc.in, err, tc.wantErr, tc.detail)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("parse %s = %#v, %v; want %#v", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestLexer_ErrorText pins the wording callers restate in their errors.
func TestLexer_ErrorText(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`{"a":1`, "fastjson: malformed JSON: unterminated object at end of input"},
		{`{"a":1]`, "fastjson: malformed JSON: expected ',' or '}' in object at offset 6"},
		{`{"a" 1}`, "fastjson: malformed JSON: expected ':' after object key at offset 5"},
		{`{[:1}`, "fastjson: malformed JSON: expected key at offset 1"},
		{`[1 2]`, "fastjson: malformed JSON: expected ',' or ']' in array at offset 3"},
		{`"abc`, "fastjson: malformed JSON: unterminated string at end of input"},
		{`"\xZZ"`, `fastjson: malformed JSON: bad \x escape at offset 3`},
		{`"\u12G4"`, `fastjson: malformed JSON: bad \u escape at offset 3`},
		{`1.`, "fastjson: malformed JSON: malformed number at end of input"},
		{`@`, "fastjson: malformed JSON: unexpected character at offset 0"},
		{`{} {}`, "fastjson: malformed JSON: unexpected data after the value at offset 3"},
		{`{"a":` + strings.Repeat("[", DefaultMaxDepth) + `}`, "fastjson: JSON nested too deeply: more than 64 levels at offset 68"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			_, err := parseAny([]byte(tc.in))
			checkErr(t, err)
			if err.Error() != tc.want {
				t.Fatalf("parse %s: err = %q, want %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestLexer_TypeErr(t *testing.T) {
	cases := []struct {
		name, in string
		read     func(l *Lexer) error
		want     error
		text     string
	}{
		{"array for object", ` [1]`, func(l *Lexer) error { return l.Object(func([]byte) error { return nil }) }, ErrType, "want object, got array at offset 1"},
		{"string for array", `"x"`, func(l *Lexer) error { return l.Array(func(int) error { return nil }) }, ErrType, "want array, got string at offset 0"},
		{"object for scalar", `{}`, func(l *Lexer) error { _, _, err := l.Scalar(); return err }, ErrType, "want scalar, got object at offset 0"},
		{"nothing for object", ` `, func(l *Lexer) error { return l.Object(func([]byte) error { return nil }) }, ErrSyntax, "want object at end of input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l Lexer
			if err := l.Reset([]byte(tc.in), Config{}); err != nil {
				t.Fatal(err)
			}
			err := tc.read(&l)
			var e *Error
			if !errors.Is(err, tc.want) || !errors.As(err, &e) || e.Detail() != tc.text {
				t.Fatalf("err = %v, want %v with detail %q", err, tc.want, tc.text)
			}
		})
	}
}

func TestError_Detail(t *testing.T) {
	cases := []struct {
		name string
		err  *Error
		want string
	}{
		{"offset", &Error{Err: ErrSyntax, Msg: "m", Offset: 7}, "m at offset 7"},
		{"end of input", &Error{Err: ErrSyntax, Msg: "m", Offset: 7, AtEnd: true}, "m at end of input"},
		{"whole input", &Error{Err: ErrTooLarge, Msg: "m", Offset: -1}, "m"},
	}
	for _, tc := range cases {
		if got := tc.err.Detail(); got != tc.want {
			t.Errorf("%s: Detail = %q, want %q", tc.name, got, tc.want)
		}
		if got := tc.err.Error(); got != tc.err.Err.Error()+": "+tc.want {
			t.Errorf("%s: Error = %q", tc.name, got)
		}
	}
}
