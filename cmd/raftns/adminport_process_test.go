package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
)

// openWatchStream opens GET /v1/watch?stream=true on a connection of its
// own, with the token when one is given, and returns the connection and
// the answer's status; the stream's events are left unread.
func openWatchStream(t *testing.T, d *net.Dialer, addr, token string) (net.Conn, int) {
	t.Helper()
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	fmt.Fprintf(c, "GET /v1/watch?stream=true HTTP/1.1\r\nHost: %s\r\n%s\r\n", addr, auth)
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("watch stream: %v", err)
	}
	_ = c.SetReadDeadline(time.Time{})
	return c, resp.StatusCode
}

// probe sends one GET on a connection of its own, as kubelet does.
func probe(addr, path, token string) (int, error) {
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestProcess_ProbesAndTheOperatorAnswerPastWatchersAndIdleConnections:
// from one address an outsider asks for 70 watch streams (more than
// --http-max-connections), opens 70 connections that send nothing and 70
// keep-alive connections left idle; /livez, /readyz and a token-bearing
// call still answer, the outsider got its per-address watcher budget and
// no more, and the member never holds more connections than its limit.
func TestProcess_ProbesAndTheOperatorAnswerPastWatchersAndIdleConnections(t *testing.T) {
	_, tokenFile, _ := catalogueFiles(t)
	p := newProc(t, "n1", "--http-token-file", tokenFile)
	p.start()
	p.waitReady()
	var d net.Dialer
	admitted, refused := 0, 0
	for range 70 {
		switch _, code := openWatchStream(t, &d, p.HTTPAddr, ""); code {
		case http.StatusOK:
			admitted++
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("watch stream answered %d", code)
		}
	}
	if admitted != 8 || refused != 62 {
		t.Fatalf("%d streams admitted and %d refused from one address, want the default per-address budget of 8", admitted, refused)
	}
	for range 70 {
		c, err := d.Dial("tcp", p.HTTPAddr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
	idle := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}}
	t.Cleanup(idle.CloseIdleConnections)
	for range 70 {
		c, err := d.Dial("tcp", p.HTTPAddr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /v1/status HTTP/1.1\r\nHost: %s\r\n\r\n", p.HTTPAddr) // then left idle
	}
	for round := range 3 {
		for _, path := range []string{"/livez", "/readyz"} {
			if code, err := probe(p.HTTPAddr, path, ""); err != nil || code != http.StatusOK {
				t.Fatalf("round %d: %s = %d %v with the admin port full", round, path, code, err)
			}
		}
		if code, err := probe(p.HTTPAddr, "/v1/kv/ns/missing", catToken); err != nil || code != http.StatusNotFound {
			t.Fatalf("round %d: token-bearing read = %d %v", round, code, err)
		}
	}
	if open := metricValue(t, p, "ns_admin_connections"); open > 64 {
		t.Fatalf("%v admin connections open, limit 64", open)
	}
	if metricValue(t, p, "ns_admin_connections_reclaimed_total") == 0 {
		t.Fatal("no connection was reclaimed, yet more than the limit were opened")
	}
	if metricValue(t, p, "ns_admin_anonymous_watchers_refused_total") != 62 {
		t.Fatal("refused watchers not counted")
	}
}

// TestProcess_WatchStreamOfAClientThatStopsReadingIsClosed: a watcher
// stops reading while brokers keep registering; once its socket takes
// nothing more for --watch-write-timeout the member closes the stream and
// counts it.
func TestProcess_WatchStreamOfAClientThatStopsReadingIsClosed(t *testing.T) {
	p := newProc(t, "n1", "--watch-write-timeout", "500ms")
	p.start()
	p.waitReady()
	conn, code := openWatchStream(t, launch.SmallReceiveDialer(4096), p.HTTPAddr, "")
	if code != http.StatusOK {
		t.Fatalf("watch stream: %d", code)
	}
	c := newClient(t)
	round := int64(0)
	poll.For(t, time.Minute, "the stuck stream to be closed", func() bool {
		round++
		topics := make([]string, 64)
		for i := range topics {
			topics[i] = fmt.Sprintf("T%d-%d-%s", round, i, strings.Repeat("x", 90))
		}
		if _, err := c.RegisterBroker(ctxT(t, 30*time.Second), p.ClientAddr,
			brokerRegistration("c1", "broker-a", "127.0.0.1:10911", 0, round, topics...)); err != nil {
			t.Fatal(err)
		}
		return metricValue(t, p, "ns_admin_watch_streams_stuck_total") == 1
	})
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.Copy(io.Discard, conn); err != nil && !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("reading the closed stream: %v, want its end", err)
	}
	if code, err := probe(p.HTTPAddr, "/livez", ""); err != nil || code != http.StatusOK {
		t.Fatalf("/livez after: %d %v", code, err)
	}
}

// TestProcess_ACLAllGuardsTheAdminReadsAndBrowsersCannotWrite: under
// --acl-mode all the admin port's reads of KV, routes, the change feed and
// the audit trail need the token, as the RocketMQ port's need a signature;
// and a cross-origin browser POST (text/plain) changes nothing.
func TestProcess_ACLAllGuardsTheAdminReadsAndBrowsersCannotWrite(t *testing.T) {
	_, tokenFile, aclFile := catalogueFiles(t)
	p := newProc(t, "n1", "--http-token-file", tokenFile, "--acl-mode", "all", "--acl-file", aclFile)
	p.start()
	p.waitReady()
	for _, path := range []string{"/v1/kv/ORDER_TOPIC_CONFIG/TopicA", "/v1/routes/TopicA", "/v1/watch?wait=1ms", "/v1/audit", "/v1/brokers", "/"} {
		if code, err := probe(p.HTTPAddr, path, ""); err != nil || code != http.StatusUnauthorized {
			t.Errorf("GET %s without the token = %d %v, want 401", path, code, err)
		}
		if code, err := probe(p.HTTPAddr, path, catToken); err != nil || code == http.StatusUnauthorized {
			t.Errorf("GET %s with the token = %d %v", path, code, err)
		}
	}
	for _, path := range []string{"/livez", "/readyz", "/metrics"} {
		if code, err := probe(p.HTTPAddr, path, ""); err != nil || code != http.StatusOK {
			t.Errorf("GET %s = %d %v, want it open", path, code, err)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, "http://"+p.HTTPAddr+"/v1/upgrade/finalize", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Authorization", "Bearer "+catToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin text/plain finalize = %d, want 403", resp.StatusCode)
	}
}

// TestProcess_CallerHeadersCannotForgeTheAuditTrail: a caller's
// X-Forwarded-For and forwarded header, sent to the leader or through a
// follower's proxy, do not reach the trail: it names the connection the
// request came on and the member that proxied it.
func TestProcess_CallerHeadersCannotForgeTheAuditTrail(t *testing.T) {
	_, tokenFile, _ := catalogueFiles(t)
	ps := startCluster(t, 3, "--http-token-file", tokenFile)
	leader := leaderOf(t, ps)
	forged := func(req *http.Request) {
		req.Header.Set("Authorization", "Bearer "+catToken)
		req.Header.Set("X-Forwarded-For", "203.0.113.66")
		req.Header.Set("X-Raftns-Forwarded", "n-forged")
	}
	send := func(req *http.Request) []byte {
		t.Helper()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s = %d %s", req.Method, req.URL.Path, resp.StatusCode, b)
		}
		return b
	}
	// Straight to the leader, claiming to come through a member. The
	// leader that took it hands office on, so its record names it as the
	// member that took the request.
	took := leader.ID
	req, _ := http.NewRequest(http.MethodPost, "http://"+leader.HTTPAddr+"/v1/leader/transfer", nil)
	forged(req)
	send(req)
	// Through a follower's proxy (a snapshot restore), claiming another
	// address; the forwarded header would stop the follower proxying, so
	// only the address is forged here.
	leader = leaderOf(t, ps)
	follower := survivors(ps, leader)[0]
	req, _ = http.NewRequest(http.MethodGet, "http://"+follower.HTTPAddr+"/v1/snapshot", nil)
	req.Header.Set("Authorization", "Bearer "+catToken)
	backup := filepath.Join(t.TempDir(), "backup.snap")
	if err := os.WriteFile(backup, send(req), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(backup)
	req, _ = http.NewRequest(http.MethodPost, "http://"+follower.HTTPAddr+"/v1/snapshot", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/octet-stream")
	forged(req)
	req.Header.Del("X-Raftns-Forwarded")
	send(req)

	var transfer, restore *state.AuditRecord
	poll.For(t, 30*time.Second, "both records", func() bool {
		trail, ok := trailOf(t, leaderOf(t, ps))
		if !ok {
			return false
		}
		for _, r := range trail {
			rec := state.AuditRecord{From: r.From, Via: r.Via, Who: r.Who}
			switch r.Kind {
			case state.AuditLeaderTransfer:
				transfer = &rec
			case state.AuditSnapshotRestore:
				restore = &rec
			}
		}
		return transfer != nil && restore != nil
	})
	if host, _, _ := strings.Cut(transfer.From, ":"); host != "127.0.0.1" || transfer.Via != took {
		t.Errorf("transfer sent to %s with forged headers recorded from %q via %q, want 127.0.0.1 via %s",
			took, transfer.From, transfer.Via, took)
	}
	if host, _, _ := strings.Cut(restore.From, ":"); host != "127.0.0.1" || restore.Via != follower.ID {
		t.Errorf("restore through %s with a forged address recorded from %q via %q, want 127.0.0.1 via %s",
			follower.ID, restore.From, restore.Via, follower.ID)
	}
}
