package buildinfo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Version is a release number, MAJOR.MINOR.PATCH. Anything after a "-" or
// "+" (a pre-release or build tag) is kept in the text but ignored when
// comparing: members compare what a release can read and write, and every
// build of one release reads and writes the same.
type Version struct {
	Major, Minor, Patch uint32
}

// ErrBadVersion reports text that is not MAJOR.MINOR.PATCH.
var ErrBadVersion = errors.New("buildinfo: bad version")

// Parse reads "MAJOR.MINOR.PATCH", optionally with a leading "v" and a
// "-…" or "+…" tail. The empty string is Baseline: a member that reports
// no version runs a build from before versions were exchanged.
func Parse(s string) (Version, error) {
	if s == "" {
		s = Baseline
	}
	core := strings.TrimPrefix(s, "v")
	if i := strings.IndexAny(core, "-+"); i >= 0 {
		core = core[:i]
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return Version{}, fmt.Errorf("%w: %q: want MAJOR.MINOR.PATCH", ErrBadVersion, s)
	}
	var nums [3]uint32
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return Version{}, fmt.Errorf("%w: %q: want MAJOR.MINOR.PATCH", ErrBadVersion, s)
		}
		nums[i] = uint32(n)
	}
	return Version{Major: nums[0], Minor: nums[1], Patch: nums[2]}, nil
}

// MustParse is Parse for constants of this source tree; it panics on a
// typo, which a test of the declaring package catches at once.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// Less reports whether v is an older release than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// String is "MAJOR.MINOR.PATCH".
func (v Version) String() string {
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Current is this build's Release, parsed.
func Current() Version { return MustParse(Release) }
