package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseArgs_Errors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // in the error text
	}{
		{"no scenario", nil, "no scenario"},
		{"unknown scenario", []string{"nope"}, `unknown scenario "nope"`},
		{"unknown flag", []string{"route", "-bogus"}, "flag provided but not defined"},
		{"bad flag value", []string{"route", "-clients", "many"}, "invalid value"},
		{"extra argument", []string{"route", "extra"}, `unexpected argument "extra"`},
		{"zero clients", []string{"route", "-clients", "0"}, "-clients and -pipeline"},
		{"no-setup without topics", []string{"route", "-no-setup"}, "-no-setup needs -topic-list"},
		{"http count differs", []string{"route", "-addrs", "a:1,b:2", "-http", "h:1"}, "-http has 1 addresses for 2 -addrs"},
		{"pid with two members", []string{"route", "-addrs", "a:1,b:2", "-pid", "7"}, "-pid needs exactly one"},
		{"two members to start", []string{"route", "-members", "2"}, "-members 2"},
		{"nothing to load", []string{"route", "-raftns", ""}, "give -addrs or -raftns"},
		{"register via nowhere", []string{"register", "-via", "nowhere"}, `-via "nowhere"`},
		{"register via follower of one", []string{"register", "-via", "follower", "-members", "1"}, "-via follower needs"},
		{"failover against running members", []string{"failover", "-addrs", "a:1"}, "-addrs is not allowed"},
		{"failover with one member", []string{"failover", "-members", "1"}, "needs -members 3"},
		{"expiry without the members' expiry", []string{"expiry", "-addrs", "a:1"}, "give -broker-expiry"},
		{"expiry heartbeat beyond expiry", []string{"expiry", "-heartbeat", "20s"}, "must be shorter"},
		{"expiry failover against running members", []string{"expiry", "-addrs", "a:1", "-broker-expiry", "5s", "-failover"}, "-failover needs members started"},
		{"large with a zero size", []string{"large", "-sizes", "10,0"}, "not a topic count"},
		{"large with a word size", []string{"large", "-sizes", "ten"}, "not a number"},
		{"memory with a bad shape", []string{"memory", "-shapes", "10by10"}, "not BROKERSxTOPICS"},
		{"memory with a bad topic mode", []string{"memory", "-topic-mode", "mixed"}, "-topic-mode"},
		{"negative timeout", []string{"route", "-timeout", "-1s"}, "-timeout must be positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseArgs(tc.args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("parseArgs(%q) error = %v, want one containing %q", tc.args, err, tc.want)
			}
			if !errors.Is(err, errUsage) {
				t.Fatalf("error %v is not errUsage", err)
			}
		})
	}
}

func TestParseArgs_HelpIsNotAnError(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"route", "-h"}} {
		var out bytes.Buffer
		if _, err := parseArgs(args, &out); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("parseArgs(%q) = %v, want flag.ErrHelp", args, err)
		}
		if out.Len() == 0 {
			t.Fatalf("parseArgs(%q) printed no usage", args)
		}
	}
}

func TestParseArgs_Route(t *testing.T) {
	inv, err := parseArgs([]string{"route", "-addrs", "127.0.0.1:1, 127.0.0.1:2", "-http", "127.0.0.1:3,127.0.0.1:4",
		"-duration", "2s", "-clients", "3", "-pipeline", "2", "-topics", "7", "-json"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := inv.sc.(*routeScenario)
	if s.Duration != 2*time.Second || s.Clients != 3 || s.Pipeline != 2 || s.Topics != 7 || s.Warmup != time.Second || s.Brokers != 4 {
		t.Fatalf("route options = %+v", s)
	}
	if !slices.Equal(inv.common.Addrs, []string{"127.0.0.1:1", "127.0.0.1:2"}) || len(inv.common.HTTP) != 2 || !inv.common.JSON || inv.common.starts() {
		t.Fatalf("common options = %+v", inv.common)
	}
}

func TestParseArgs_DefaultsAdjustMembers(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		members int
	}{
		{"route starts one", []string{"route"}, 1},
		{"failover starts three", []string{"failover"}, 3},
		{"failover honours five", []string{"failover", "-members", "5"}, 5},
		{"register via follower starts three", []string{"register", "-via", "follower"}, 3},
		{"expiry failover starts three", []string{"expiry", "-failover"}, 3},
		{"large via follower starts three", []string{"large", "-via", "follower"}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := parseArgs(tc.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if inv.common.Members != tc.members {
				t.Fatalf("members = %d, want %d", inv.common.Members, tc.members)
			}
		})
	}
}

func TestParseArgs_ExpiryPassesItsTimersToStartedMembers(t *testing.T) {
	inv, err := parseArgs([]string{"expiry", "-broker-expiry", "3s", "-scan-interval", "250ms", "-member-args", "--max-stale 5s"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--broker-expiry", "3s", "--scan-interval", "250ms", "--max-stale", "5s"}
	if !slices.Equal(inv.common.MemberArgs, want) {
		t.Fatalf("member args = %q, want %q", inv.common.MemberArgs, want)
	}
	s := inv.sc.(*expiryScenario)
	if s.Warm != 2*time.Second || s.KillAfter != 0 {
		t.Fatalf("warm = %v, kill-after = %v; want 2s and 0", s.Warm, s.KillAfter)
	}
	inv, err = parseArgs([]string{"expiry", "-broker-expiry", "8s", "-failover"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s := inv.sc.(*expiryScenario); s.KillAfter != 4*time.Second {
		t.Fatalf("kill-after = %v, want half the expiry", s.KillAfter)
	}
}

func TestParseArgs_LargeAndMemoryLists(t *testing.T) {
	inv, err := parseArgs([]string{"large", "-sizes", "10, 20,30"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.sc.(*largeScenario).Sizes; !slices.Equal(got, []int{10, 20, 30}) {
		t.Fatalf("sizes = %v", got)
	}
	inv, err = parseArgs([]string{"memory", "-shapes", "10x20,30x40"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.sc.(*memoryScenario).Shapes; !slices.Equal(got, []shape{{10, 20}, {30, 40}}) {
		t.Fatalf("shapes = %v", got)
	}
	inv, err = parseArgs([]string{"memory"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.sc.(*memoryScenario).Shapes; len(got) != 3 {
		t.Fatalf("default shapes = %v, want three", got)
	}
}

func TestRun_ExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"no arguments", nil, 2},
		{"help", []string{"-h"}, 0},
		{"bad flag", []string{"register", "-clients", "0"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(tc.args, &stdout, &stderr); got != tc.want {
				t.Fatalf("exit code = %d, want %d (stderr %q)", got, tc.want, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Fatalf("stdout = %q, want nothing", stdout.String())
			}
		})
	}
}

func TestCompare_OnlyChoosesFigures(t *testing.T) {
	parse := func(args ...string) (*compareScenario, error) {
		s := &compareScenario{}
		fs := flag.NewFlagSet("compare", flag.ContinueOnError)
		s.bind(fs)
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		return s, s.check(&commonOptions{}, nil)
	}
	if _, err := parse("-only", "route"); !errors.Is(err, errUsage) {
		t.Fatalf("-only route: err %v, want a usage error", err)
	}
	s, err := parse("-only", "write")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.readClients()) != 0 || len(s.WriteClients) == 0 {
		t.Fatalf("-only write: read clients %v, write clients %v; want none and the defaults", s.readClients(), s.WriteClients)
	}
	if s, err = parse(); err != nil || len(s.readClients()) == 0 {
		t.Fatalf("without -only: err %v, read clients %v; want the defaults", err, s.readClients())
	}
	if s, err = parse("-only", "reads"); err != nil || len(s.readClients()) == 0 || s.wants(figSingle) || !s.wants(figCeiling) {
		t.Fatalf("-only reads: err %v, read clients %v, single %v, ceiling %v; want the reads and their ceiling only",
			err, s.readClients(), s.wants(figSingle), s.wants(figCeiling))
	}
	if s, err = parse("-only", "single"); err != nil || len(s.readClients()) != 0 || !s.wants(figRaw1) || s.wants(figLeader) {
		t.Fatalf("-only single: err %v, read clients %v, raw1 %v, leader %v; want the single member and raw raft 1 node only",
			err, s.readClients(), s.wants(figRaw1), s.wants(figLeader))
	}
}
