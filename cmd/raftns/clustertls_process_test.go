package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
	"github.com/raftns/raftns/transport/tlstest"
)

// TestProcess_ClusterTLSMembersFormClusterAndForwardWrites starts three
// members whose cluster ports are mutual TLS, each with its own certificate,
// and registers a broker through a follower: the forwarded write and its
// replication cross TLS.
func TestProcess_ClusterTLSMembersFormClusterAndForwardWrites(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	var ps []*proc
	var peers []string
	for i := 1; i <= 3; i++ {
		p := newProc(t, fmt.Sprintf("n%d", i))
		ps = append(ps, p)
		peers = append(peers, p.ID+"="+p.ClusterAddr)
	}
	for _, p := range ps {
		f := ca.Issue(t, dir, p.ID)
		p.Args = []string{"--peers", strings.Join(peers, ","),
			"--cluster-tls-cert", f.CertFile, "--cluster-tls-key", f.KeyFile, "--cluster-tls-ca", f.CAFile}
		p.start()
	}
	for _, p := range ps {
		p.waitReady()
	}
	leader := leaderOf(t, ps)
	follower := survivors(ps, leader)[0]
	c := newClient(t)
	ctx := ctxT(t, time.Minute)
	reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicTLS")
	if _, err := c.RegisterBroker(ctx, follower.ClientAddr, reg); err != nil {
		t.Fatalf("registration through follower %s: %v", follower.ID, err)
	}
	for _, p := range ps {
		poll.For(t, 20*time.Second, "TopicTLS on "+p.ID, func() bool {
			route, err := c.GetRoute(ctx, p.ClientAddr, "TopicTLS")
			return err == nil && len(route.BrokerDatas) == 1 && route.BrokerDatas[0].BrokerAddrs[0] == reg.BrokerAddr
		})
		if !strings.Contains(p.Log(), "cluster_tls=true") {
			t.Fatalf("%s did not log that its cluster port uses TLS:\n%s", p.ID, p.Log())
		}
	}

	// UPDATE_NAMESRV_CONFIG may not point a member at other certificates.
	req := &remoting.Command{Code: remoting.UpdateNamesrvConfig, Body: []byte("clusterTlsCa=/tmp/other-ca.pem\n")}
	_, err := c.Invoke(ctx, follower.ClientAddr, req)
	var re *nsclient.ResponseError
	if !errors.As(err, &re) || re.Code != remoting.NoPermission {
		t.Fatalf("UPDATE_NAMESRV_CONFIG of clusterTlsCa = %v, want NO_PERMISSION", err)
	}
}
