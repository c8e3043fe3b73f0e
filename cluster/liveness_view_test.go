package cluster

import (
	"testing"
	"time"
)

func TestCluster_BrokerLivenessOnTheLeaderOnly(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) { c.BrokerExpiry = time.Minute })
	leader := tc.waitLeaderReady()
	short := registration("c1", "b-short", "10.0.0.2:10911", 0, 1)
	short.HeartbeatTimeoutMillis = 5000
	register(t, leader, registration("c1", "b-default", "10.0.0.1:10911", 0, 1))
	register(t, leader, short)

	live, ok := leader.node.BrokerLiveness()
	if !ok || len(live) != 2 {
		t.Fatalf("leader liveness = %+v, %v; want both brokers", live, ok)
	}
	for _, l := range live {
		ttl := int64(60000)
		if l.Addr == "10.0.0.2:10911" {
			ttl = 5000
		}
		if l.LastHeartbeatMillis < 0 || l.ExpiresInMillis > ttl || l.ExpiresInMillis < ttl-l.LastHeartbeatMillis-1 {
			t.Fatalf("%s: last heartbeat %d ms ago, expires in %d ms; want the %d ms timeout minus the silence", l.Addr, l.LastHeartbeatMillis, l.ExpiresInMillis, ttl)
		}
	}
	for _, f := range tc.followers() {
		if live, ok := f.node.BrokerLiveness(); ok {
			t.Fatalf("follower %s reported liveness %+v", f.id, live)
		}
	}
}
