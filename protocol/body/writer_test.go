package body

import (
	"testing"

	"github.com/raftns/raftns/protocol/fastjson"
)

// The escaping itself is tested in protocol/fastjson; these cases only
// prove that the exported writers pass their arguments through unchanged.
func TestWriter_DelegatesToFastjson(t *testing.T) {
	for _, m := range []Mode{Default, Standard} {
		cases := []struct {
			name      string
			got, want string
		}{
			{"AppendString", string(AppendString([]byte("x:"), "é/\u2028", m)), string(fastjson.AppendString([]byte("x:"), "é/\u2028", m))},
			{"AppendKey", string(AppendKey(nil, "k/é", m)), string(fastjson.AppendKey(nil, "k/é", m))},
			{"AppendNumberKey", string(AppendNumberKey(nil, -12, m)), string(fastjson.AppendNumberKey(nil, -12, m))},
			{"AppendLong", string(AppendLong(nil, 1<<53, m)), string(fastjson.AppendLong(nil, 1<<53, m))},
		}
		for _, tc := range cases {
			if tc.got != tc.want {
				t.Errorf("%v %s = %s, want %s", m, tc.name, tc.got, tc.want)
			}
		}
	}
}

func TestMode_IsFastjsonMode(t *testing.T) {
	if Default != fastjson.Default || Standard != fastjson.Standard || Standard.String() != "Standard" {
		t.Fatalf("modes = %v, %v; want fastjson's Default and Standard", Default, Standard)
	}
}
