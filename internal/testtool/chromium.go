package testtool

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// Chromium runs headless Chromium, one fresh profile per call.
type Chromium struct {
	Path string
	t    testing.TB
}

// RequireChromium finds Debian's chromium (see Require).
func RequireChromium(t testing.TB) *Chromium {
	t.Helper()
	return &Chromium{Path: Require(t, "chromium", "chromium", "chromium-browser", "google-chrome"), t: t}
}

// chromiumFlags make a run headless, quiet and offline apart from the page
// itself; --no-sandbox because tests may run as root.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-dev-shm-usage", "--hide-scrollbars",
}

func (c *Chromium) run(ctx context.Context, extra ...string) ([]byte, error) {
	profile, err := os.MkdirTemp("", "raftns-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	args := append(append([]string{}, chromiumFlags...), "--user-data-dir="+profile)
	args = append(args, extra...)
	cmd := exec.CommandContext(ctx, c.Path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("chromium %v: %w\n%s", extra, err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// DumpDOM loads url and returns the DOM after the page's load event.
func (c *Chromium) DumpDOM(ctx context.Context, url string) (string, error) {
	out, err := c.run(ctx, "--dump-dom", url)
	return string(out), err
}

// Screenshot loads url in a window of width×height CSS pixels and writes a
// PNG of it to path.
func (c *Chromium) Screenshot(ctx context.Context, url, path string, width, height int) error {
	if _, err := c.run(ctx, "--screenshot="+path, "--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height), url); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("chromium wrote no screenshot: %w", err)
	}
	if st.Size() == 0 {
		return fmt.Errorf("chromium wrote an empty screenshot %s", path)
	}
	return nil
}
