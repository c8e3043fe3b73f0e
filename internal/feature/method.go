package feature

import "strings"

// Method names the RPC method name of feature f: name@release. A member
// that knows the method serves it under either name; one that does not
// can then say which release it needs.
func Method(f Feature, name string) string { return name + "@" + f.Since.String() }

// SplitMethod splits a method name from Method into the name and the
// release it needs ("" for a plain name).
func SplitMethod(method string) (name, release string) {
	name, release, _ = strings.Cut(method, "@")
	return name, release
}
