package fastjson

import "testing"

func TestAppendNumberKey_Modes(t *testing.T) {
	cases := []struct {
		name     string
		key      int64
		def, std string
	}{
		{"zero", 0, `0:`, `"0":`},
		{"positive", 12, `12:`, `"12":`},
		{"negative", -1, `-1:`, `"-1":`},
	}
	for _, tc := range cases {
		if got := string(AppendNumberKey(nil, tc.key, Default)); got != tc.def {
			t.Errorf("%s Default: got %s, want %s", tc.name, got, tc.def)
		}
		if got := string(AppendNumberKey(nil, tc.key, Standard)); got != tc.std {
			t.Errorf("%s Standard: got %s, want %s", tc.name, got, tc.std)
		}
	}
}

func TestAppendLong_BrowserCompatibleQuoting(t *testing.T) {
	cases := []struct {
		v        int64
		def, std string
	}{
		{1<<53 - 1, "9007199254740991", "9007199254740991"},
		{1 << 53, "9007199254740992", `"9007199254740992"`},
		{-(1<<53 - 1), "-9007199254740991", "-9007199254740991"},
		{-(1 << 53), "-9007199254740992", `"-9007199254740992"`},
		{0, "0", "0"},
	}
	for _, tc := range cases {
		if got := string(AppendLong(nil, tc.v, Default)); got != tc.def {
			t.Errorf("%d Default: got %s, want %s", tc.v, got, tc.def)
		}
		if got := string(AppendLong(nil, tc.v, Standard)); got != tc.std {
			t.Errorf("%d Standard: got %s, want %s", tc.v, got, tc.std)
		}
	}
}

func TestAppendInt_JavaInt(t *testing.T) {
	cases := []struct {
		v    int32
		want string
	}{{0, "0"}, {-1, "-1"}, {2147483647, "2147483647"}, {-2147483648, "-2147483648"}}
	for _, tc := range cases {
		if got := string(AppendInt([]byte("x:"), tc.v)); got != "x:"+tc.want {
			t.Errorf("AppendInt(%d) = %s, want x:%s", tc.v, got, tc.want)
		}
	}
}

func TestAppendBool_Literals(t *testing.T) {
	if got := string(AppendBool(AppendBool(nil, true), false)); got != "truefalse" {
		t.Fatalf("got %s, want truefalse", got)
	}
}
