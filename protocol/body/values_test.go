package body

import (
	"strconv"
	"testing"
)

// checkPlainDecimal fails when plainDecimal takes s and strconv.ParseInt
// does not give the same value.
func checkPlainDecimal(t *testing.T, s string) {
	t.Helper()
	v, ok := plainDecimal([]byte(s))
	if !ok {
		return
	}
	want, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v != want {
		t.Fatalf("plainDecimal(%q) = %d; strconv gives %d, %v", s, v, want, err)
	}
}

// What plainDecimal reads, it reads as strconv.ParseInt does; what it
// leaves (signs, spaces, 19 digits and more, fractions) goes to strconv.
func TestPlainDecimal_MatchesStrconv(t *testing.T) {
	taken := []string{"0", "-0", "7", "-7", "007", "16", "999999999999999999", "-999999999999999999", "2147483647", "-2147483648"}
	for _, s := range taken {
		if _, ok := plainDecimal([]byte(s)); !ok {
			t.Errorf("%q not taken", s)
		}
		checkPlainDecimal(t, s)
	}
	for _, s := range []string{"", "-", "+1", " 1", "1 ", "1.0", "1e3", "0x10", "1_000", "9223372036854775807", "-9223372036854775808", "--1", "١"} {
		if v, ok := plainDecimal([]byte(s)); ok {
			t.Errorf("%q taken as %d", s, v)
		}
	}
}

func FuzzPlainDecimal(f *testing.F) {
	for _, s := range []string{"0", "-12", "123456789012345678", "1e3", "+4"} {
		f.Add(s)
	}
	f.Fuzz(checkPlainDecimal)
}
