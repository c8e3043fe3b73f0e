package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/raftns/raftns/namesrv"
)

// allNames returns every name a setting goes by: the properties -p and
// GET_NAMESRV_CONFIG report, every flag, and every alias.
func allNames(t *testing.T) []string {
	t.Helper()
	cfg, err := parseConfig([]string{"--data-dir", t.TempDir()}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for k := range cfg.properties() {
		names = append(names, k)
	}
	for f, k := range flagKeys {
		names = append(names, f, k)
	}
	for _, as := range keyAliases {
		names = append(names, as...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestConfig_EveryKeyIsProtectedUnderEveryName walks every name of every
// setting: UPDATE_NAMESRV_CONFIG must refuse it unless it is one of the
// reference's run-time switches, and a persisted file must not be able to
// set it. A setting added without protection fails here.
func TestConfig_EveryKeyIsProtectedUnderEveryName(t *testing.T) {
	cfg, err := parseConfig([]string{"--data-dir", t.TempDir()}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	settings := namesrv.NewSettings(cfg.properties(), nil, protectedKeys()...)
	for _, name := range allNames(t) {
		t.Run(name, func(t *testing.T) {
			runtime := slices.Contains(runtimeKeys, name) || slices.Contains(runtimeKeys, flagKeys[name])
			if got := settings.Protected(name); got == runtime {
				t.Fatalf("protected = %v for a key that is %s", got, map[bool]string{true: "a run-time switch", false: "read at start"}[runtime])
			}
		})
	}
}

// TestConfig_PersistedAliasesCannotMoveThePorts: the aliases that an
// UPDATE_NAMESRV_CONFIG once let through (listenPort) are dropped from the
// persisted file at start.
func TestConfig_PersistedAliasesCannotMoveThePorts(t *testing.T) {
	dir := t.TempDir()
	text := "listenPort=1\nbindAddress=10.1.1.1\nclusterAddr=10.9.9.9:1\nhttpTokenFile=/tmp/x\naclMode=off\nscanNotActiveBrokerInterval=1\n"
	if err := os.WriteFile(filepath.Join(dir, "namesrv.properties"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig([]string{"--data-dir", dir}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	def := defaultConfig()
	if cfg.Listen != def.Listen || cfg.ClusterAddr != def.ClusterAddr || cfg.HTTPTokenFile != "" || cfg.ScanInterval != def.ScanInterval {
		t.Fatalf("persisted file changed start-only settings: listen %s cluster %s token %q scan %v",
			cfg.Listen, cfg.ClusterAddr, cfg.HTTPTokenFile, cfg.ScanInterval)
	}
}

func TestConfig_SecurityValidation(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		ok   bool
	}{
		{"exposed cluster port refused", []string{"--cluster-addr", "0.0.0.0:9866"}, false},
		{"exposed cluster port with --cluster-insecure", []string{"--cluster-addr", "0.0.0.0:9866", "--cluster-insecure"}, true},
		{"exposed cluster port with a key", []string{"--cluster-addr", "10.0.0.1:9866", "--cluster-key-file", "/k"}, true},
		{"exposed admin port without token (mutations from loopback only)", []string{"--http-addr", "0.0.0.0:9856"}, true},
		{"exposed admin port with token", []string{"--http-addr", "0.0.0.0:9856", "--http-token-file", "/t"}, true},
		{"admin TLS cert without key", []string{"--http-tls-cert", "/c"}, false},
		{"acl without accounts", []string{"--acl-mode", "writes"}, false},
		{"bad acl mode", []string{"--acl-mode", "maybe", "--acl-file", "/a"}, false},
		{"bad broker allow-list", []string{"--acl-broker-addrs", "not-an-ip"}, false},
		{"budget below the body cap", []string{"--max-request-memory", "8MiB", "--max-inflated-body", "16MiB"}, false},
		{"sizes with units", []string{"--max-request-memory", "1GiB", "--max-inflated-body", "64MiB"}, true},
		{"bad size", []string{"--max-request-memory", "lots"}, false},
		{"acl all without an admin token", []string{"--acl-mode", "all", "--acl-file", "/a"}, false},
		{"acl all with an admin token", []string{"--acl-mode", "all", "--acl-file", "/a", "--http-token-file", "/t"}, true},
		{"acl all with public admin reads", []string{"--acl-mode", "all", "--acl-file", "/a", "--http-public-reads"}, true},
		{"acl all without an admin port", []string{"--acl-mode", "all", "--acl-file", "/a", "--http-addr", ""}, true},
		{"no anonymous watchers", []string{"--watch-max-anonymous", "0"}, false},
		{"tiny stream write timeout", []string{"--watch-write-timeout", "1ms"}, false},
		{"bad trusted proxy", []string{"--http-trusted-proxies", "proxy.example"}, false},
		{"trusted proxies", []string{"--http-trusted-proxies", "10.0.0.0/8,192.0.2.7"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConfig(append([]string{"--data-dir", dir}, tc.args...), &bytes.Buffer{})
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
