package main

import (
	"strings"
	"testing"
)

func TestUsage_ErrorsExitTwoAndSendNothing(t *testing.T) {
	f := newFakeAdmin(t, 200, statusAnswer)
	cases := []struct {
		name       string
		args       []string
		wantStderr string
		wantHint   string
	}{
		{name: "no command", args: nil, wantStderr: `missing command for "raftnsctl"; one of: audit, clusters, completion, config, controller, delete-topic, kv, leader`,
			wantHint: "Run 'raftnsctl --help' for usage."},
		{name: "audit limit out of range", args: []string{"audit", "--limit", "0"},
			wantStderr: "audit: --limit 0: want 1 to 1000", wantHint: "Run 'raftnsctl audit --help'"},
		{name: "unknown command with suggestion", args: []string{"stauts"},
			wantStderr: `unknown command "stauts" for "raftnsctl" (did you mean "status"?)`, wantHint: "Run 'raftnsctl --help'"},
		{name: "group without command", args: []string{"peers"},
			wantStderr: `missing command for "raftnsctl peers"; one of: add, demote, list, promote, remove`, wantHint: "Run 'raftnsctl peers --help'"},
		{name: "unknown subcommand", args: []string{"snapshot", "load", "x"},
			wantStderr: `unknown command "load" for "raftnsctl snapshot"`, wantHint: "Run 'raftnsctl snapshot --help'"},
		{name: "missing arguments", args: []string{"peers", "add", "ns-4"},
			wantStderr: "raftnsctl: peers add: missing CLUSTER_ADDR\n", wantHint: "Run 'raftnsctl peers add --help'"},
		{name: "extra argument", args: []string{"status", "now"},
			wantStderr: `raftnsctl: status: unexpected argument "now"`, wantHint: "Run 'raftnsctl status --help'"},
		{name: "empty argument", args: []string{"peers", "remove", ""},
			wantStderr: "raftnsctl: peers remove: ID must not be empty", wantHint: "Run 'raftnsctl peers remove --help'"},
		{name: "unknown flag", args: []string{"status", "--verbose"},
			wantStderr: "unknown flag: --verbose", wantHint: "Run 'raftnsctl status --help'"},
		{name: "bad output format", args: []string{"-o", "yaml", "status"},
			wantStderr: `-o "yaml": want table or json`, wantHint: "Run 'raftnsctl status --help'"},
		{name: "bad timeout", args: []string{"--timeout", "soon", "status"},
			wantStderr: `invalid argument "soon" for "--timeout"`, wantHint: "Run 'raftnsctl status --help'"},
		{name: "zero timeout", args: []string{"--timeout", "0s", "status"},
			wantStderr: "--timeout 0s: must be positive", wantHint: "Run 'raftnsctl status --help'"},
		{name: "bad admin address", args: []string{"--addr", "localhost", "status"},
			wantStderr: `--addr "localhost": want HOST:PORT`, wantHint: "Run 'raftnsctl status --help'"},
		{name: "bad cluster address", args: []string{"peers", "add", "ns-4", "10.0.0.4"},
			wantStderr: `CLUSTER_ADDR "10.0.0.4": want HOST:PORT`, wantHint: "Run 'raftnsctl peers add --help'"},
		{name: "empty transfer target", args: []string{"leader", "transfer", "--to", ""},
			wantStderr: "--to must not be empty", wantHint: "Run 'raftnsctl leader transfer --help'"},
		{name: "bad name server address", args: []string{"--namesrv", "nohost", "topics"},
			wantStderr: `--namesrv "nohost": want HOST:PORT`, wantHint: "Run 'raftnsctl topics --help'"},
		{name: "kv put empty key", args: []string{"kv", "put", "NS", "", "v"},
			wantStderr: "raftnsctl: kv put: KEY must not be empty", wantHint: "Run 'raftnsctl kv put --help'"},
		{name: "kv export without namespace", args: []string{"kv", "export"},
			wantStderr: "raftnsctl: kv export: missing NS", wantHint: "Run 'raftnsctl kv export --help'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ctl(t, append([]string{"--addr", f.addr()}, tc.args...)...)
			r.mustFail(t, 2, tc.wantStderr)
			if !strings.Contains(r.stderr, tc.wantHint) {
				t.Errorf("stderr = %q, want the hint %q", r.stderr, tc.wantHint)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
			if n := len(f.requests()); n != 0 {
				t.Fatalf("fake admin API got %d requests, want none", n)
			}
		})
	}
}

func TestUsage_HelpExitsZeroWithExamples(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{args: []string{"--help"}, want: []string{"Exit status: 0 on success, 1 when", "raftnsctl snapshot save backup.snap",
			"env RAFTNS_ADDR", "env RAFTNS_NAMESRV", "Available Commands:"}},
		{args: []string{"peers", "--help"}, want: []string{"Usage:\n  raftnsctl peers [command]\n", "remove"}},
		{args: []string{"peers", "remove", "--help"}, want: []string{"raftnsctl peers remove ns-3 --force", "--force"}},
		{args: []string{"help", "route"}, want: []string{"GET_ROUTEINFO_BY_TOPIC", "raftnsctl route TopicTest"}},
		{args: []string{"kv", "import", "-h"}, want: []string{"kvConfig.json", "--dry-run"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := ctl(t, tc.args...).mustSucceed(t)
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("help output lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}
