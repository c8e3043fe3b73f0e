package fastjson

import (
	"errors"
	"strings"
	"testing"
)

func TestLexer_RawValue(t *testing.T) {
	cases := []struct {
		name, in string
		want     string
		kind     Kind
		rest     int // offset after the value
	}{
		{"string unescaped", ` "a\nb\u00e9"`, "a\nbé", KindString, 13},
		{"single-quoted string", `'it\'s'`, "it's", KindString, 7},
		{"number", `-1.5e3,`, "-1.5e3", KindNumber, 6},
		{"identifier reads as a number token", `abc}`, "abc", KindNumber, 3},
		{"true", `true`, "true", KindBool, 4},
		{"false", `false`, "false", KindBool, 5},
		{"null", `null`, "", KindNull, 4},
		{"object as raw text", `{"a":[1,{"b":"}"}]} ,`, `{"a":[1,{"b":"}"}]}`, KindRaw, 19},
		{"brackets counted, not matched", `{[}],`, `{[}]`, KindRaw, 4},
		{"contents unchecked but strings", `[@#!],`, `[@#!]`, KindRaw, 5},
		{"nesting beyond the depth limit", strings.Repeat("[", 100) + strings.Repeat("]", 100), strings.Repeat("[", 100) + strings.Repeat("]", 100), KindRaw, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l Lexer
			if err := l.Reset([]byte(tc.in), Config{}); err != nil {
				t.Fatal(err)
			}
			got, kind, err := l.RawValue()
			if err != nil || string(got) != tc.want || kind != tc.kind || l.Offset() != tc.rest {
				t.Fatalf("RawValue = %q, %d, %v at %d; want %q, %d at %d", got, kind, err, l.Offset(), tc.want, tc.kind, tc.rest)
			}
		})
	}
}

func TestLexer_RawValueErrors(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"nothing", ` `, "expected value at end of input"},
		{"closing bracket", `}`, "unexpected '}' at offset 0"},
		{"NUL byte", "\x00", `unexpected '\x00' at offset 0`},
		{"unterminated string", `"abc`, "unterminated string at end of input"},
		{"unterminated composite", `{"a":[1}`, "unterminated object or array at end of input"},
		{"bad escape inside a composite", `["\q"]`, "bad escape 'q' at offset 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l Lexer
			if err := l.Reset([]byte(tc.in), Config{}); err != nil {
				t.Fatal(err)
			}
			_, _, err := l.RawValue()
			var e *Error
			if !errors.Is(err, ErrSyntax) || !errors.As(err, &e) || e.Detail() != tc.want {
				t.Fatalf("err = %v, want ErrSyntax with detail %q", err, tc.want)
			}
		})
	}
}
