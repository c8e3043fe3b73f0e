package fastjson

import "testing"

func TestLexer_PlainIntReadsWhatScalarAndPlainDecimalRead(t *testing.T) {
	for _, in := range []string{"0", "-0", "007", "2147483648", "-123456789012345678", "1234567890123456789",
		"1.5", "1e3", "1E3", "-", "-x", "12x", "", "x", `"6"`, "null", "6,"} {
		var plain, general Lexer
		if err := plain.Reset([]byte(in), Config{}); err != nil {
			t.Fatal(err)
		}
		general = plain
		v, raw, ok := plain.PlainInt()
		kind, graw, err := general.Scalar()
		want, wantOK := int64(0), false
		if err == nil && kind == KindNumber {
			want, wantOK = PlainDecimal(graw)
		}
		if ok != wantOK || v != want {
			t.Errorf("%q: PlainInt %d %v, Scalar and PlainDecimal %d %v", in, v, ok, want, wantOK)
			continue
		}
		switch {
		case ok && (string(raw) != string(graw) || plain.Offset() != general.Offset()):
			t.Errorf("%q: PlainInt read %q to offset %d, Scalar %q to %d", in, raw, plain.Offset(), graw, general.Offset())
		case !ok && plain.Offset() != 0:
			t.Errorf("%q: PlainInt gave up at offset %d, want 0", in, plain.Offset())
		}
	}
}

func TestLexer_RestAdvanceDepthLeft(t *testing.T) {
	var l Lexer
	if err := l.Reset([]byte(`{"a":[1,2]}`), Config{MaxDepth: 5}); err != nil {
		t.Fatal(err)
	}
	if got := l.DepthLeft(); got != 5 {
		t.Fatalf("depth left at the start %d, want 5", got)
	}
	err := l.Object(func(key []byte) error {
		if got := l.DepthLeft(); got != 4 {
			t.Errorf("depth left inside the object %d, want 4", got)
		}
		if got := string(l.Rest()); got != "[1,2]}" {
			t.Errorf("rest %q, want the value and what follows", got)
		}
		l.Advance(len("[1,2]"))
		return nil
	})
	if err != nil || !l.AtEnd() {
		t.Fatalf("object after skipping its value by hand: %v, at end %v", err, l.AtEnd())
	}
	l.Advance(10)
	if l.Offset() != len(`{"a":[1,2]}`) {
		t.Fatalf("advance past the end moved to %d", l.Offset())
	}
	l.Advance(-3)
	if l.Offset() != len(`{"a":[1,2]}`) {
		t.Fatalf("a negative advance moved to %d", l.Offset())
	}
}
