package main

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

var deployDir = filepath.Join("..", "..", "deploy")

// composeFile is the part of the Compose specification deploy/compose uses;
// decoding is strict, so a key outside it (a typo, or a new key nobody
// checked) fails the test.
type composeFile struct {
	Name     string                    `json:"name"`
	Services map[string]composeService `json:"services"`
	Volumes  map[string]struct{}       `json:"volumes"`
}

type composeService struct {
	Image       string                               `json:"image"`
	Build       struct{ Context, Dockerfile string } `json:"build"`
	Hostname    string                               `json:"hostname"`
	Restart     string                               `json:"restart"`
	ReadOnly    bool                                 `json:"read_only"`
	CapDrop     []string                             `json:"cap_drop"`
	SecurityOpt []string                             `json:"security_opt"`
	Command     []string                             `json:"command"`
	Ports       []string                             `json:"ports"`
	Volumes     []string                             `json:"volumes"`
}

// TestComposeFileRunsThreeConsistentMembers parses the compose file (Docker
// is not available to the tests) and checks each service's command line
// with raftns's own flag parser: three members with distinct IDs, the same
// peer list naming each service's advertised cluster address, distinct host
// ports, and a named volume at each data dir.
func TestComposeFileRunsThreeConsistentMembers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(deployDir, "compose", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cf composeFile
	if err := yaml.UnmarshalStrict(data, &cf); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	if len(cf.Services) != 3 {
		t.Fatalf("want three services, got %d", len(cf.Services))
	}
	if _, err := os.Stat(filepath.Join(deployDir, "compose", cf.Services["ns1"].Build.Context, cf.Services["ns1"].Build.Dockerfile)); err != nil {
		t.Fatalf("build context and Dockerfile do not resolve: %v", err)
	}
	hostPorts := map[string]string{}
	var peerLists []string
	ids := map[string]bool{}
	for name, svc := range cf.Services {
		cfg, err := parseConfig(svc.Command, io.Discard)
		if err != nil {
			t.Fatalf("service %s: command %v: %v", name, svc.Command, err)
		}
		if cfg.ID != name || cfg.AdvertiseHost != svc.Hostname || svc.Hostname != name {
			t.Fatalf("service %s: id %q, advertise host %q, hostname %q must all be the service name", name, cfg.ID, cfg.AdvertiseHost, svc.Hostname)
		}
		ids[cfg.ID] = true
		var peers []string
		for _, p := range cfg.Peers {
			peers = append(peers, p.ID+"="+p.Addr)
			host, port, _ := net.SplitHostPort(p.Addr)
			if _, ok := cf.Services[host]; !ok || host != p.ID {
				t.Fatalf("peer %s=%s is not a service of this file", p.ID, p.Addr)
			}
			if _, clusterPort, _ := net.SplitHostPort(cfg.ClusterAddr); clusterPort != port {
				t.Fatalf("peer %s port %s differs from --cluster-addr %s", p.ID, port, cfg.ClusterAddr)
			}
		}
		sort.Strings(peers)
		peerLists = append(peerLists, strings.Join(peers, ","))
		for _, p := range svc.Ports {
			parts := strings.Split(p, ":")
			if len(parts) != 3 || parts[0] != "127.0.0.1" {
				t.Fatalf("service %s publishes %q; want 127.0.0.1:HOST:CONTAINER", name, p)
			}
			if other, dup := hostPorts[parts[1]]; dup {
				t.Fatalf("host port %s published by %s and %s", parts[1], other, name)
			}
			hostPorts[parts[1]] = name
		}
		mounted := false
		for _, v := range svc.Volumes {
			vol, path, _ := strings.Cut(v, ":")
			if _, ok := cf.Volumes[vol]; ok && path == cfg.DataDir {
				mounted = true
			}
		}
		if !mounted {
			t.Fatalf("service %s has no named volume at its data dir %s", name, cfg.DataDir)
		}
	}
	if len(ids) != 3 {
		t.Fatalf("member IDs are not distinct: %v", ids)
	}
	for _, pl := range peerLists[1:] {
		if pl != peerLists[0] || strings.Count(pl, "=") != 3 {
			t.Fatalf("peer lists differ or do not name three members: %v", peerLists)
		}
	}
}

// TestSystemdUnitAndSampleProperties checks that the unit starts raftns
// with the sample properties file's path, that the sample parses, and that
// its data dir is the unit's state directory.
func TestSystemdUnitAndSampleProperties(t *testing.T) {
	unit := readUnit(t, filepath.Join(deployDir, "systemd", "raftns.service"))
	exec := unit["ExecStart"]
	if len(exec) != 1 || !strings.HasSuffix(exec[0], " -c /etc/raftns/raftns.properties") {
		t.Fatalf("ExecStart = %v, want raftns -c /etc/raftns/raftns.properties", exec)
	}
	cfg, err := parseConfig([]string{"-c", filepath.Join(deployDir, "systemd", "raftns.properties")}, io.Discard)
	if err != nil {
		t.Fatalf("sample properties: %v", err)
	}
	if state := unit["StateDirectory"]; len(state) != 1 || cfg.DataDir != "/var/lib/"+state[0] {
		t.Fatalf("dataDir %s is not the unit's StateDirectory %v", cfg.DataDir, state)
	}
	if cfg.ID == "" || len(cfg.Peers) != 3 || cfg.LogFormat != "json" {
		t.Fatalf("sample: id %q, %d peers, log format %q", cfg.ID, len(cfg.Peers), cfg.LogFormat)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if addr, err := cfg.clientAddr(cfg.ID, ln); err != nil || addr != "10.0.0.1:9876" {
		t.Fatalf("sample advertises client address %q (%v), want 10.0.0.1:9876 accepted", addr, err)
	}
	if cfg.AddressServiceAddr == "" {
		t.Fatal("the sample serves no address service")
	}
	for _, key := range []string{"NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp", "CapabilityBoundingSet",
		"RestrictAddressFamilies", "SystemCallFilter", "MemoryDenyWriteExecute", "DynamicUser"} {
		if _, ok := unit[key]; !ok {
			t.Fatalf("unit lacks hardening option %s", key)
		}
	}
}

// readUnit returns a systemd unit's settings, key to values in order.
func readUnit(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "[") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s: line %q is not KEY=VALUE", path, line)
		}
		out[k] = append(out[k], v)
	}
	return out
}
