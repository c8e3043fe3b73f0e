package fastjson

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bodyConfig is the configuration protocol/body decodes with; the lenient
// cases below were written for it.
var bodyConfig = Config{AnyEscape: true, RefAsEmpty: true}

// bodiesDir holds the golden bodies, used as fuzz seeds.
const bodiesDir = "../../testdata/bodies"

// readAny reads any value into the shapes encoding/json produces with
// UseNumber: map[string]any, []any, string, json.Number, bool, nil.
func readAny(l *Lexer) (any, error) {
	switch l.Peek() {
	case '{':
		m := map[string]any{}
		err := l.Object(func(key []byte) error {
			k := ValidString(key)
			v, err := readAny(l)
			m[k] = v
			return err
		})
		return m, err
	case '[':
		a := []any{}
		err := l.Array(func(int) error {
			v, err := readAny(l)
			a = append(a, v)
			return err
		})
		return a, err
	}
	kind, text, err := l.Scalar()
	switch kind {
	case KindBool:
		return string(text) == "true", err
	case KindNumber:
		return json.Number(text), err
	case KindString:
		return ValidString(text), err
	}
	return nil, err
}

// parse reads one whole JSON text with cfg.
func parse(b []byte, cfg Config) (any, error) {
	var l Lexer
	if err := l.Reset(b, cfg); err != nil {
		return nil, err
	}
	v, err := readAny(&l)
	if err != nil {
		return nil, err
	}
	return v, l.Finish()
}

func parseAny(b []byte) (any, error) { return parse(b, bodyConfig) }

// checkErr fails unless err is an *Error wrapping one of the sentinels.
func checkErr(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	for _, s := range []error{ErrSyntax, ErrType, ErrTooDeep, ErrTooLarge} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v wraps no sentinel", err)
}

// goldenSeeds returns every golden body, for fuzz seeds.
func goldenSeeds(f *testing.F) [][]byte {
	f.Helper()
	entries, err := os.ReadDir(bodiesDir)
	if err != nil {
		f.Fatalf("read golden dir: %v", err)
	}
	var out [][]byte
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(bodiesDir, e.Name()))
		if err != nil {
			f.Fatalf("read golden: %v", err)
		}
		out = append(out, b)
	}
	return out
}
