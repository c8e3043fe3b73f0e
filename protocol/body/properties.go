package body

import (
	"bytes"
	"sort"
	"strings"

	"github.com/magiconair/properties"
)

// ParseProperties reads Java properties text (comments, continuations,
// escapes and ':' or '=' separators included).
func ParseProperties(text []byte) (map[string]string, error) {
	p, err := properties.Load(text, properties.UTF8)
	if err != nil {
		return nil, err
	}
	return p.Map(), nil
}

// FormatProperties writes key=value lines in key order, as 5.x does; nil
// when there is nothing to write.
func FormatProperties(props map[string]string) []byte {
	if len(props) == 0 {
		return nil
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strings.ReplaceAll(props[k], "\n", "\\n"))
		b.WriteByte('\n')
	}
	return b.Bytes()
}
