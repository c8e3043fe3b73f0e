package snapshots

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// kvConfigFile mirrors the reference NameServer's KVConfigSerializeWrapper.
// Values are pointers because fastjson may have written nulls by hand-edit;
// the reference drops them on the next save, and so does the parser.
type kvConfigFile struct {
	ConfigTable map[string]map[string]*string `json:"configTable"`
}

// ParseKVConfigJSON parses the reference NameServer's kvConfig.json
// ({"configTable":{"NS":{"k":"v"}}}) into namespace -> key -> value. Null
// values are dropped and a null namespace becomes an empty one; anything that
// is not that shape is an error wrapping ErrKVConfig.
func ParseKVConfigJSON(data []byte) (map[string]map[string]string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: empty document", ErrKVConfig)
	}
	var f kvConfigFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKVConfig, err)
	}
	out := make(map[string]map[string]string, len(f.ConfigTable))
	for ns, kv := range f.ConfigTable {
		table := make(map[string]string, len(kv))
		for k, v := range kv {
			if v != nil {
				table[k] = *v
			}
		}
		out[ns] = table
	}
	return out, nil
}

// FormatKVConfigJSON writes namespace -> key -> value the way the reference
// NameServer writes kvConfig.json: compact fastjson default encoding
// (KVConfigManager.persist). Namespaces and keys are sorted so the output is
// deterministic; the reference writes HashMap order.
func FormatKVConfigJSON(table map[string]map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"configTable":{`)
	for i, ns := range slices.Sorted(maps.Keys(table)) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeFastjsonString(&b, ns)
		b.WriteString(`:{`)
		kv := table[ns]
		for j, k := range slices.Sorted(maps.Keys(kv)) {
			if j > 0 {
				b.WriteByte(',')
			}
			writeFastjsonString(&b, k)
			b.WriteByte(':')
			writeFastjsonString(&b, kv[k])
		}
		b.WriteByte('}')
	}
	b.WriteString(`}}`)
	return b.Bytes()
}

// writeFastjsonString quotes s as fastjson's default serializer does
// (SerializeWriter with IOUtils.specicalFlags_doubleQuotes): short escapes for
// \b \f \n \r \t " and \, \u00XX in upper-case hex for the other C0 controls,
// DEL and the C1 controls, \u2028 and \u2029; '/' and other non-ASCII raw.
// Invalid UTF-8 becomes U+FFFD.
func writeFastjsonString(b *bytes.Buffer, s string) {
	const hex = "0123456789ABCDEF"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || (r >= 0x7F && r <= 0x9F):
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xF])
		case r == 0x2028 || r == 0x2029:
			fmt.Fprintf(b, `\u%04X`, r)
		default:
			b.WriteRune(r) // utf8.RuneError for invalid input, as U+FFFD
		}
	}
	b.WriteByte('"')
}
