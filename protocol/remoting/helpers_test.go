package remoting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// framesDir holds the golden frames shared with other packages.
const framesDir = "../../testdata/frames"

// readGolden returns a golden frame, length prefix included.
func readGolden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(framesDir, name))
	if err != nil {
		t.Fatalf("read golden: %v", err)
	}
	return b
}

// goldenFiles lists every golden frame.
func goldenFiles(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(framesDir, "*.bin"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no golden frames in %s: %v", framesDir, err)
	}
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

// testLogger writes through t.Log, so a test's output shows only on
// failure. A benchmark prints every b.Log line, so it logs warnings only.
func testLogger(t testing.TB) hclog.Logger {
	level := hclog.Debug
	if _, bench := t.(*testing.B); bench {
		level = hclog.Warn
	}
	return hclog.New(&hclog.LoggerOptions{Name: "remoting", Level: level, Output: testWriter{t}})
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
