package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/raftns/raftns/internal/docsamples"
)

// checkStartable runs what a start with args checks before it binds a
// port: the flags and file (parseConfig), and the client address this
// member would advertise, computed from the configured listen address.
func checkStartable(args []string) error {
	_, err := startableClientAddr(args)
	return err
}

// startableClientAddr is checkStartable that also returns the client
// address the member would advertise.
func startableClientAddr(args []string) (string, error) {
	cfg, err := parseConfig(args, io.Discard)
	if err != nil {
		return "", err
	}
	addr, err := net.ResolveTCPAddr("tcp", cfg.Listen)
	if err != nil {
		return "", err
	}
	return cfg.clientAddr(cfg.ID, configuredListener{addr})
}

// configuredListener stands for a listener bound where configured; only
// its address is used.
type configuredListener struct{ addr net.Addr }

func (l configuredListener) Accept() (net.Conn, error) { return nil, net.ErrClosed }
func (l configuredListener) Close() error              { return nil }
func (l configuredListener) Addr() net.Addr            { return l.addr }

// TestDocs_RaftnsCommandLinesStart checks every raftns command line that
// README.md and docs/ show, as written, with the real flag and
// configuration code: a member started with it would not refuse.
func TestDocs_RaftnsCommandLinesStart(t *testing.T) {
	cmds, err := docsamples.ProgramCommands(filepath.Join("..", ".."), "raftns")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if err := checkStartable(readerFiles(t, c.Args[1:])); err != nil {
			t.Errorf("%s: %v\n\t%q", c.Where(), err, c.Args)
		}
	}
}

// readerFiles stands an empty file in for a -c file that a command line
// names but the repository does not hold (namesrv.properties: the reader's
// own), so the rest of the line is checked.
func readerFiles(t *testing.T, args []string) []string {
	out := append([]string(nil), args...)
	for i := 0; i+1 < len(out); i++ {
		if out[i] != "-c" && out[i] != "--c" {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", out[i+1])); err == nil {
			out[i+1] = filepath.Join("..", "..", out[i+1])
			continue
		}
		empty := filepath.Join(t.TempDir(), filepath.Base(out[i+1]))
		if err := os.WriteFile(empty, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		out[i+1] = empty
	}
	return out
}

// TestDocs_RaftnsPropertiesSamplesStart checks every properties block
// without an attribute (raftns's own configuration) as a -c file.
func TestDocs_RaftnsPropertiesSamplesStart(t *testing.T) {
	blocks, err := docsamples.Blocks(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if b.Lang != "properties" || b.Attr() != "" {
			continue
		}
		path := filepath.Join(t.TempDir(), "raftns.properties")
		if err := os.WriteFile(path, []byte(b.Text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := checkStartable([]string{"-c", path, "--data-dir", t.TempDir()}); err != nil {
			t.Errorf("%s: %v", b.Where(), err)
		}
	}
}
