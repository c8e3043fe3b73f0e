package main

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// keepAlive re-sends each broker's current registration, so it must write
// nothing however far the figures have bumped the brokers, and must leave
// every broker registered.
func TestCompareKeepAlive_WritesNothing(t *testing.T) {
	m := startMember(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n := newNaming()
	tgt := &compareTarget{name: "keep", addr: m.ClientAddr, live: true}
	for i := range 4 {
		tgt.regs = append(tgt.regs, n.broker("keep", i, topicConfigs(n.topics(fmt.Sprintf("keep-%d", i), 3), 4)))
		tgt.clients = append(tgt.clients, nsclient.New(remoting.ClientConfig{DialTimeout: 5 * time.Second, RequestTimeout: 5 * time.Second}))
	}
	defer tgt.clients.close()
	// A figure bumps the brokers and registers each new version.
	for round := range 3 {
		for i, r := range tgt.regs {
			bump(r)
			if _, err := tgt.clients[i].RegisterBroker(ctx, tgt.addr, r); err != nil {
				t.Fatalf("round %d: register %s: %v", round, r.BrokerName, err)
			}
		}
	}
	before, ok := appliedIndex(ctx, m)
	if !ok {
		t.Fatal("no status from the member")
	}
	for range 3 {
		if err := tgt.keepAlive(ctx); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := appliedIndex(ctx, m)
	if after != before {
		t.Fatalf("keepAlive wrote %d log entries, want none", after-before)
	}
	// A changed registration still writes, so the check above could fail.
	bump(tgt.regs[0])
	if err := tgt.keepAlive(ctx); err != nil {
		t.Fatal(err)
	}
	if changed, _ := appliedIndex(ctx, m); changed == after {
		t.Fatal("a bumped broker's registration wrote nothing; the index does not show writes")
	}
}

func TestRawArgs_FollowTheMembersTimersAndGCTarget(t *testing.T) {
	cases := []struct {
		member []string
		want   []string
	}{
		{nil, nil},
		{[]string{"--log-level", "debug"}, nil},
		{[]string{"--raft-multiplier", "3", "--gc-percent=150"}, []string{"-raft-multiplier", "3", "-gc-percent", "150"}},
		{[]string{"--gc-percent", "200", "--raft-multiplier=2"}, []string{"-gc-percent", "200", "-raft-multiplier", "2"}},
	}
	for _, tc := range cases {
		if got := rawArgs(tc.member); !slices.Equal(got, tc.want) {
			t.Errorf("rawArgs(%q) = %q, want %q", tc.member, got, tc.want)
		}
	}
}
