package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/internal/buildinfo"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfig_LayersDefaultsFileAndFlags(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, "namesrv.properties", strings.Join([]string{
		"# reference keys",
		"listenPort = 9911",
		"orderMessageEnable=true",
		"scanNotActiveBrokerInterval=2000",
		"serverChannelMaxIdleTimeSeconds: 60",
		"someUnknownKey=kept",
		"brokerExpiry=30s",
		"dataDir=" + dir,
	}, "\n"))
	cfg, err := parseConfig([]string{"-c", file, "--broker-expiry", "45s", "--http-addr", ""}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"listen from listenPort", cfg.Listen, ":9911"},
		{"scan interval in ms", cfg.ScanInterval, 2 * time.Second},
		{"idle timeout in s", cfg.IdleTimeout, 60 * time.Second},
		{"flag overrides file", cfg.BrokerExpiry, 45 * time.Second},
		{"empty flag disables http", cfg.HTTPAddr, ""},
		{"data dir from file", cfg.DataDir, dir},
		{"reference key kept", cfg.Namesrv["orderMessageEnable"], "true"},
		{"unknown key kept", cfg.Namesrv["someUnknownKey"], "kept"},
		{"default cluster addr", cfg.ClusterAddr, "127.0.0.1:9866"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestConfig_PersistedSettingsLoadAfterFileBeforeFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "namesrv.properties"), []byte("orderMessageEnable=true\nclusterAddr=10.9.9.9:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig([]string{"--data-dir", dir}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Namesrv["orderMessageEnable"] != "true" {
		t.Fatal("persisted setting not loaded")
	}
	if cfg.ClusterAddr != "127.0.0.1:9866" {
		t.Fatalf("a RaftNS key in the persisted file was applied: %s", cfg.ClusterAddr)
	}
	cfg, err = parseConfig([]string{"--data-dir", dir, "--order-message-enable", "false"}, &bytes.Buffer{})
	if err != nil || cfg.Namesrv["orderMessageEnable"] != "false" {
		t.Fatalf("flag did not override the persisted setting: %v %v", cfg.Namesrv, err)
	}
}

func TestConfig_BadInputIsRefusedClearly(t *testing.T) {
	cases := []struct {
		name string
		args []string
		file string
		want string
	}{
		{"bad port", nil, "listenPort=99999", "listenPort"},
		{"bad duration", []string{"--broker-expiry", "soon"}, "", "broker-expiry"},
		{"bad boolean", nil, "orderMessageEnable=maybe", "orderMessageEnable"},
		{"bad peer", []string{"--peers", "n1"}, "", "ID=HOST:PORT"},
		{"bad listen", []string{"--listen", "nonsense"}, "", "listen"},
		{"bad log level", []string{"--log-level", "loud"}, "", "log level"},
		{"bad log format", []string{"--log-format", "xml"}, "", "log format"},
		{"extra argument", []string{"serve"}, "", "unexpected argument"},
		{"missing file", []string{"-c", "/nonexistent/raftns.properties"}, "", "read config file"},
		{"bad multiplier", nil, "raftMultiplier=x", "raftMultiplier"},
		{"bad TLS mode", nil, "tls.server.mode=strict", "tls.server.mode"},
		{"bad client auth", []string{"--tls-need-client-auth", "sometimes"}, "", "tls.server.need.client.auth"},
		{"encrypted key", nil, "tls.server.keyPassword=secret", "encrypted private keys"},
		{"bad proxy protocol", []string{"--proxy-protocol", "maybe"}, "", "proxyProtocol"},
		{"bad reload interval", []string{"--tls-reload-interval", "often"}, "", "tlsReloadInterval"},
		{"missing TLS config file", []string{"--tls-config-file", "/nonexistent/tls.properties"}, "", "tls.config.file"},
		{"bad acting-master flag", []string{"--support-acting-master", "perhaps"}, "", "support-acting-master"},
		{"bad snapshot interval", []string{"--snapshot-interval", "often"}, "", "snapshot-interval"},
		{"snapshot interval too short", []string{"--snapshot-interval", "10ms"}, "", "snapshot interval 10ms is below 100ms"},
		{"zero snapshot threshold", []string{"--snapshot-threshold", "0"}, "", "snapshot-threshold"},
		{"negative trailing logs", nil, "trailingLogs=-5", "trailingLogs"},
		{"bad trailing logs", []string{"--trailing-logs", "many"}, "", "trailing-logs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.file != "" {
				args = append([]string{"-c", writeFile(t, "f.properties", tc.file)}, args...)
			}
			_, err := parseConfig(args, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestConfig_SnapshotSettingsReachTheCluster(t *testing.T) {
	cfg, err := parseConfig(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	def := cluster.DefaultConfig()
	if cfg.SnapshotInterval != def.SnapshotInterval || cfg.SnapshotThreshold != def.SnapshotThreshold || cfg.TrailingLogs != def.TrailingLogs {
		t.Fatalf("defaults %v/%d/%d differ from the cluster's %v/%d/%d", cfg.SnapshotInterval, cfg.SnapshotThreshold, cfg.TrailingLogs,
			def.SnapshotInterval, def.SnapshotThreshold, def.TrailingLogs)
	}
	file := writeFile(t, "n.properties", "snapshotThreshold=500\ntrailingLogs=700\n")
	cfg, err = parseConfig([]string{"-c", file, "--snapshot-interval", "750ms", "--trailing-logs", "900"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	lns := &listeners{client: ln, cluster: ln}
	cc, err := clusterConfig(cfg, "n1", lns, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	rc := cc.RaftSettings()
	if rc.SnapshotInterval != 750*time.Millisecond || rc.SnapshotThreshold != 500 || rc.TrailingLogs != 900 {
		t.Fatalf("raft runs with interval %v, threshold %d, trailing %d; want 750ms, 500 (file), 900 (flag over file)",
			rc.SnapshotInterval, rc.SnapshotThreshold, rc.TrailingLogs)
	}
	props := cfg.properties()
	if props["snapshotInterval"] != "750ms" || props["snapshotThreshold"] != "500" || props["trailingLogs"] != "900" {
		t.Fatalf("effective configuration shows %q/%q/%q", props["snapshotInterval"], props["snapshotThreshold"], props["trailingLogs"])
	}
}

func TestRun_PrintsEffectiveConfigAndExits(t *testing.T) {
	var out, errOut bytes.Buffer
	file := writeFile(t, "n.properties", "listenPort=9911\n")
	if code := run([]string{"-c", file, "-p", "--id", "n7"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, line := range []string{"listenPort=9911\n", "id=n7\n", "orderMessageEnable=false\n", "brokerExpiry=2m0s\n"} {
		if !strings.Contains(out.String(), line) {
			t.Fatalf("-p output lacks %q:\n%s", line, out.String())
		}
	}
	if code := run([]string{"--listen", "bad"}, &out, &errOut); code != 2 {
		t.Fatalf("bad flag exit = %d, want 2", code)
	}
}

func TestConfig_MemberIDIsStoredAndChecked(t *testing.T) {
	dir := t.TempDir()
	cfg := defaultConfig()
	cfg.DataDir = dir
	id, err := cfg.resolveID()
	if err != nil || !strings.HasPrefix(id, "ns-") {
		t.Fatalf("generated id %q, %v", id, err)
	}
	again, err := cfg.resolveID()
	if err != nil || again != id {
		t.Fatalf("second start got %q, want the stored %q", again, id)
	}
	cfg.ID = "other"
	if _, err := cfg.resolveID(); err == nil {
		t.Fatal("a different --id on an existing data dir was accepted")
	}
}

func TestRun_VersionPrintsTheBuildAndReadsNothing(t *testing.T) {
	var out, errOut bytes.Buffer
	missing := filepath.Join(t.TempDir(), "absent.properties")
	if code := run([]string{"--version", "-c", missing}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := "raftns " + buildinfo.Release + " (module "
	if !strings.HasPrefix(out.String(), want) || !strings.Contains(out.String(), "commit ") {
		t.Fatalf("--version printed %q, want a line starting %q with the commit", out.String(), want)
	}
}
