package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raftns/raftns/transport/tlstest"
)

func TestConfig_ClusterTLSFilesAllOrNone(t *testing.T) {
	dir := t.TempDir()
	f := tlstest.NewCA(t, dir, "members").Issue(t, dir, "n1")
	cases := []struct {
		name string
		args []string
		file string
		want string // "" for success
	}{
		{"none", nil, "", ""},
		{"all three flags", []string{"--cluster-tls-cert", f.CertFile, "--cluster-tls-key", f.KeyFile, "--cluster-tls-ca", f.CAFile}, "", ""},
		{"all three properties", nil, "clusterTlsCert=" + f.CertFile + "\nclusterTlsKey=" + f.KeyFile + "\nclusterTlsCa=" + f.CAFile, ""},
		{"file and flags together", []string{"--cluster-tls-ca", f.CAFile}, "clusterTlsCert=" + f.CertFile + "\nclusterTlsKey=" + f.KeyFile, ""},
		{"certificate only", []string{"--cluster-tls-cert", f.CertFile}, "", "--cluster-tls-key (clusterTlsKey), --cluster-tls-ca (clusterTlsCa) missing"},
		{"no CA", []string{"--cluster-tls-cert", f.CertFile, "--cluster-tls-key", f.KeyFile}, "", "--cluster-tls-ca (clusterTlsCa) missing"},
		{"CA only in the file", nil, "clusterTlsCa=" + f.CAFile, "--cluster-tls-cert (clusterTlsCert), --cluster-tls-key (clusterTlsKey) missing"},
		{"empty flag clears the file's key", []string{"--cluster-tls-key", ""}, "clusterTlsCert=" + f.CertFile + "\nclusterTlsKey=" + f.KeyFile + "\nclusterTlsCa=" + f.CAFile, "--cluster-tls-key (clusterTlsKey) missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--data-dir", t.TempDir()}, tc.args...)
			if tc.file != "" {
				args = append([]string{"-c", writeFile(t, "f.properties", tc.file)}, args...)
			}
			cfg, err := parseConfig(args, &bytes.Buffer{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				if tls, err := cfg.clusterTLS(); err != nil || (tls != nil) != (cfg.ClusterTLSCert != "") {
					t.Fatalf("clusterTLS() = %v, %v with cert %q", tls != nil, err, cfg.ClusterTLSCert)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestRun_BadClusterTLSFilesStopTheStart(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	f := ca.Issue(t, dir, "n1")
	other := ca.Issue(t, dir, "n2")
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("-----BEGIN CERTIFICATE-----\nnot base64\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(dir, "absent.pem")
	cases := []struct {
		name          string
		cert, key, ca string
		want          string
	}{
		{"unreadable certificate", unreadable, f.KeyFile, f.CAFile, unreadable},
		{"key of another member", f.CertFile, other.KeyFile, f.CAFile, "private key does not match public key"},
		{"invalid certificate", garbage, f.KeyFile, f.CAFile, garbage},
		{"unreadable CA", f.CertFile, f.KeyFile, unreadable, unreadable},
		{"CA without certificates", f.CertFile, f.KeyFile, garbage, "CA file " + garbage + " holds no PEM certificate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := []string{"--id", "n1", "--data-dir", t.TempDir(), "--listen", "127.0.0.1:0", "--cluster-addr", "127.0.0.1:0",
				"--http-addr", "", "--cluster-tls-cert", tc.cert, "--cluster-tls-key", tc.key, "--cluster-tls-ca", tc.ca}
			if code := run(args, &out, &errOut); code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, errOut.String())
			}
			log := errOut.String()
			if !strings.Contains(log, "cannot start") || !strings.Contains(log, "cluster TLS") || !strings.Contains(log, tc.want) {
				t.Fatalf("stderr lacks a cluster TLS start-up error mentioning %q:\n%s", tc.want, log)
			}
			if strings.Contains(log, "raftns member started") {
				t.Fatalf("the member started despite bad TLS files:\n%s", log)
			}
		})
	}
}

func TestRun_PrintShowsClusterTLSFiles(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"-p", "--cluster-tls-cert", "/etc/raftns/n1.pem", "--cluster-tls-key", "/etc/raftns/n1-key.pem",
		"--cluster-tls-ca", "/etc/raftns/ca.pem"}
	// -p prints the settings without reading the files.
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, line := range []string{"clusterTlsCert=/etc/raftns/n1.pem\n", "clusterTlsKey=/etc/raftns/n1-key.pem\n", "clusterTlsCa=/etc/raftns/ca.pem\n"} {
		if !strings.Contains(out.String(), line) {
			t.Fatalf("-p output lacks %q:\n%s", line, out.String())
		}
	}
}

func TestConfig_PersistedSettingsCannotSetClusterTLS(t *testing.T) {
	dir := t.TempDir()
	text := "clusterTlsCert=/evil/cert.pem\nclusterTlsKey=/evil/key.pem\nclusterTlsCa=/evil/ca.pem\n"
	if err := os.WriteFile(filepath.Join(dir, "namesrv.properties"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig([]string{"--data-dir", dir}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ClusterTLSCert != "" || cfg.ClusterTLSKey != "" || cfg.ClusterTLSCA != "" {
		t.Fatalf("persisted settings set cluster TLS: %q %q %q", cfg.ClusterTLSCert, cfg.ClusterTLSKey, cfg.ClusterTLSCA)
	}
	for _, key := range []string{"clusterTlsCert", "clusterTlsKey", "clusterTlsCa"} {
		found := false
		for _, k := range protectedKeys() {
			found = found || k == key
		}
		if !found {
			t.Errorf("%s is not protected, so UPDATE_NAMESRV_CONFIG could change it", key)
		}
	}
}
