package remoting

import "strconv"

// LanguageJava is the language name RaftNS and Java peers put in headers, and
// the one assumed when a JSON header has none.
const LanguageJava = "JAVA"

// unknownLanguagePrefix names a binary language byte outside the table as
// "UNKNOWN_<n>", so that decoding never fails on it (Java decodes it to null).
const unknownLanguagePrefix = "UNKNOWN_"

// languageNames is the LanguageCode table (Java LanguageCode), indexed by the
// byte used in binary headers. NODE_JS exists from RocketMQ 5 on.
var languageNames = [...]string{
	"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY", "OTHER",
	"HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS",
}

// LanguageName returns the LanguageCode name of a binary language byte, or
// "UNKNOWN_<n>" for a byte outside the table.
func LanguageName(code byte) string {
	if int(code) < len(languageNames) {
		return languageNames[code]
	}
	return unknownLanguagePrefix + strconv.Itoa(int(code))
}

// LanguageCode returns the binary byte of a language name. The empty name
// counts as JAVA, and "UNKNOWN_<n>" maps back to n.
func LanguageCode(name string) (byte, bool) {
	if name == "" {
		return 0, true
	}
	for i, n := range languageNames {
		if n == name {
			return byte(i), true
		}
	}
	if len(name) > len(unknownLanguagePrefix) && name[:len(unknownLanguagePrefix)] == unknownLanguagePrefix {
		n, err := strconv.ParseUint(name[len(unknownLanguagePrefix):], 10, 8)
		if err == nil {
			return byte(n), true
		}
	}
	return 0, false
}

// internLanguage returns the table's constant string for a known name, so
// the common case allocates nothing, or a copy of b otherwise.
func internLanguage(b []byte) string {
	for _, n := range languageNames {
		if string(b) == n {
			return n
		}
	}
	return toValidString(b)
}
