package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemdSampleEditedPerMember edits the systemd sample as its header
// says, once per member of its peers list: the lines under "This member"
// get the member's id and host, nothing else changes. Every copy must
// start, name its own cluster address as in peers, and give brokers and
// clients an address no other member gives. A per-member value outside
// that section would stay the same on every machine and fail here.
func TestSystemdSampleEditedPerMember(t *testing.T) {
	sample, err := os.ReadFile(filepath.Join(deployDir, "systemd", "raftns.properties"))
	if err != nil {
		t.Fatal(err)
	}
	n1, err := parseConfig([]string{"-c", filepath.Join(deployDir, "systemd", "raftns.properties")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	host1 := hostOf(t, n1.ClusterAddr)
	var self []string
	section := false
	for _, line := range strings.Split(string(sample), "\n") {
		switch {
		case strings.HasPrefix(line, "# This member"):
			section = true
		case strings.TrimSpace(line) == "":
			section = false
		case section && !strings.HasPrefix(line, "#"):
			self = append(self, line)
		case !section && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "peers=") && strings.Contains(line, host1):
			t.Errorf("line %q names this member's host outside \"This member\": every machine would keep it", line)
		}
	}
	if len(self) == 0 {
		t.Fatal(`no "# This member" section in the sample`)
	}
	clientAddrs := map[string]string{}
	for _, p := range n1.Peers {
		edited := string(sample)
		for _, line := range self {
			mine := strings.ReplaceAll(strings.ReplaceAll(line, host1, hostOf(t, p.Addr)), "="+n1.ID, "="+p.ID)
			edited = strings.Replace(edited, line+"\n", mine+"\n", 1)
		}
		path := filepath.Join(t.TempDir(), "raftns.properties")
		if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := checkStartable([]string{"-c", path}); err != nil {
			t.Fatalf("member %s: %v", p.ID, err)
		}
		cfg, err := parseConfig([]string{"-c", path}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ID != p.ID || cfg.ClusterAddr != p.Addr {
			t.Errorf("member %s's copy: id %q, cluster address %q; peers says %s", p.ID, cfg.ID, cfg.ClusterAddr, p.Addr)
		}
		addr, err := cfg.clientAddr(cfg.ID, configuredListener{&net.TCPAddr{Port: 9876}})
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := clientAddrs[addr]; dup {
			t.Errorf("members %s and %s both give clients %s", other, p.ID, addr)
		}
		clientAddrs[addr] = p.ID
	}
}

func hostOf(t *testing.T, addr string) string {
	t.Helper()
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
