package fastjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// dropRefOnly mirrors the lexer's rule on encoding/json output: an object
// whose only key is "$ref" reads as empty.
func dropRefOnly(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["$ref"]; ok && len(x) == 1 {
			return map[string]any{}
		}
		for k, e := range x {
			x[k] = dropRefOnly(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropRefOnly(e)
		}
	}
	return v
}

func FuzzLenientJSON(f *testing.F) {
	for _, seed := range goldenSeeds(f) {
		f.Add(seed)
	}
	for _, s := range []string{`{0:0,'a':[1,,2,],}`, `{"$ref":"$.x"}`, `"\uD83D\uDE00\x41"`, `[-0.5e+3,true,null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseAny(data)
		if err != nil {
			checkErr(t, err)
		}
		if !json.Valid(data) {
			return
		}
		// The lenient reader accepts all standard JSON within its depth
		// limit and reads it as encoding/json does.
		if errors.Is(err, ErrTooDeep) {
			return
		}
		if err != nil {
			t.Fatalf("valid JSON %q rejected: %v", data, err)
		}
		var want any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if want = dropRefOnly(want); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %#v\nwant %#v", data, got, want)
		}
	})
}

// FuzzRawValue checks the header decoder's lenient reader: no panic, typed
// errors, and on standard JSON the value standard JSON reads, with
// composites returned as their exact text.
func FuzzRawValue(f *testing.F) {
	for _, seed := range goldenSeeds(f) {
		f.Add(seed)
	}
	for _, s := range []string{`{code:1,'remark':'\x41\u00e9',,extFields:{a:true,b:null,c:{"d":[1]}}}`, `"\uD83D\uDE00\uD800"`, `abc`, `[}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var l Lexer
		if err := l.Reset(data, Config{}); err != nil {
			t.Fatal(err)
		}
		text, kind, err := l.RawValue()
		if err != nil {
			checkErr(t, err)
		}
		if !json.Valid(data) {
			return
		}
		if err != nil || !l.AtEnd() {
			t.Fatalf("valid JSON %q: RawValue = %q, %v, at end %v", data, text, err, l.AtEnd())
		}
		switch kind {
		case KindString:
			var want string
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			if got := ValidString(text); got != want {
				t.Fatalf("%q: got %q, want %q", data, got, want)
			}
		case KindNull:
			if text != nil {
				t.Fatalf("%q: null with text %q", data, text)
			}
		default:
			if want := bytes.TrimLeft(bytes.TrimRight(data, " \t\n\r"), " \t\n\r"); !bytes.Equal(text, want) {
				t.Fatalf("%q: got %q, want %q", data, text, want)
			}
		}
	})
}
