package body

import (
	"maps"
	"testing"
)

func TestProperties_FormatIsSortedAndReadsBack(t *testing.T) {
	props := map[string]string{"rocketmqHome": "/opt/rocketmq", "orderMessageEnable": "true", "multi": "a\nb"}
	text := FormatProperties(props)
	want := "multi=a\\nb\norderMessageEnable=true\nrocketmqHome=/opt/rocketmq\n"
	if string(text) != want {
		t.Fatalf("FormatProperties = %q, want %q", text, want)
	}
	back, err := ParseProperties(text)
	if err != nil || !maps.Equal(back, props) {
		t.Fatalf("ParseProperties(FormatProperties(p)) = %v, %v; want %v", back, err, props)
	}
	if FormatProperties(nil) != nil {
		t.Fatal("FormatProperties(nil) is not nil")
	}
}

// Any text either parses or is refused with an error; it never panics.
func FuzzParseProperties(f *testing.F) {
	for _, seed := range []string{"", "a=b\n", "# comment\nkey : value \\\n  continued\n", "k=\\u00e9\n", "=\n", "a\\", "\\uZZZZ=1"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		props, err := ParseProperties(text)
		if err == nil && props == nil {
			t.Fatal("no error and no map")
		}
	})
}
