package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// badInput is one entry of the catalogue: an attack and the answer it
// must get. Every entry is followed by the same checks: the member is
// alive and its routes, KV and membership are what they were.
type badInput struct {
	port, name string
	run        func(t *testing.T)
}

// TestProcess_BadInputCatalogue plays hostile input against every port of a
// member that has turned every control on (cluster key, admin token, ACL in
// writes mode, a 32 MiB request budget, a 5 s frame timeout), then against
// damaged data dirs.
func TestProcess_BadInputCatalogue(t *testing.T) {
	keyFile, tokenFile, aclFile := catalogueFiles(t)
	p := newProc(t, "n1", "--cluster-key-file", keyFile, "--http-token-file", tokenFile,
		"--acl-mode", "writes", "--acl-file", aclFile, "--acl-broker-addrs", "127.0.0.1",
		"--max-request-memory", "32MiB", "--max-inflated-body", "16MiB", "--frame-timeout", "5s",
		"--max-restore-size", "1MiB", "--broker-expiry", "1h")
	p.start()
	p.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 10*time.Minute)
	addr := p.ClientAddr
	reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicCat")
	if _, err := c.RegisterBroker(ctx, addr, reg); err != nil {
		t.Fatalf("registration from the broker allow-list: %v", err)
	}
	put := signedRequest(&remoting.Command{Code: remoting.PutKVConfig,
		ExtFields: map[string]string{"namespace": "ns", "key": "k", "value": "v1"}}, catAdminKey, catAdminSecret)
	if code, remark := invokeCode(t, c, addr, put); code != remoting.Success {
		t.Fatalf("signed PUT_KV_CONFIG: %d %s", code, remark)
	}

	fingerprint := func(t *testing.T) string {
		route, err := c.GetRoute(ctx, addr, "TopicCat")
		if err != nil {
			t.Fatalf("route: %v", err)
		}
		kv, err := c.GetKV(ctx, addr, "ns", "k")
		if err != nil {
			t.Fatalf("kv: %v", err)
		}
		ci, err := c.GetClusterInfo(ctx, addr)
		if err != nil {
			t.Fatalf("cluster info: %v", err)
		}
		st, ok := p.status()
		if !ok {
			t.Fatal("no status")
		}
		return fmt.Sprintf("route=%v kv=%s brokers=%v members=%v leader=%s term=%d",
			route.BrokerDatas, kv, ci.BrokerAddrTable, metricValue(t, p, "raft_peers"), st.LeaderID, st.Term)
	}
	want := fingerprint(t)
	heapBefore := metricValue(t, p, "go_memstats_heap_sys_bytes")

	var cases []badInput
	client := func(name string, run func(t *testing.T)) { cases = append(cases, badInput{"client", name, run}) }
	clusterPort := func(name string, run func(t *testing.T)) { cases = append(cases, badInput{"cluster", name, run}) }
	admin := func(name string, run func(t *testing.T)) { cases = append(cases, badInput{"admin", name, run}) }

	// Client port: frames that do not decode close the connection.
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"negative frame length", frame(0x80000000, 0, nil)},
		{"frame length below the header word", frame(2, 0, nil)},
		{"frame length over 16 MiB", frame(17<<20, 0, nil)},
		{"header length beyond the frame", frame(8, 100, []byte("abcd"))},
		{"header over 64 KiB", frame(70<<10, 66<<10, nil)},
		{"unknown serialize type", frame(8, 7<<24|4, []byte("abcd"))},
		{"JSON header that is not JSON", frame(9, 5, []byte("{oops"))},
		{"HTTP request on the RocketMQ port", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")},
		{"frame cut short", frame(1000, 4, []byte("{}"))},
	} {
		client(f.name, func(t *testing.T) { expectClosed(t, addr, f.data, false) })
	}
	client("frame started and stalled (slow sender)", func(t *testing.T) {
		expectClosed(t, addr, frame(1000, 2, []byte("{}")), true)
	})
	client("response frame is ignored", func(t *testing.T) {
		resp := encode(t, &remoting.Command{Code: remoting.Success, Flag: 1, Opaque: 5})
		req := encode(t, &remoting.Command{Code: remoting.GetRouteInfoByTopic, Opaque: 6, ExtFields: map[string]string{"topic": "TopicCat"}})
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.Write(append(resp, req...))
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		got, err := remoting.ReadCommand(bufio.NewReader(conn))
		if err != nil || got.Opaque != 6 || got.Code != remoting.Success {
			t.Fatalf("after a response frame: %+v, %v", got, err)
		}
	})
	// Client port: requests that decode but are wrong get an error.
	regReq := func(compressed bool, b []byte) *remoting.Command {
		return &remoting.Command{Code: remoting.RegisterBroker, Version: 400, ExtFields: registerHeader(compressed), Body: b}
	}
	client("register body that is not zlib", func(t *testing.T) {
		expectCode(t, c, addr, regReq(true, []byte("not zlib at all")), remoting.SystemError, "zlib")
	})
	client("register zip bomb (zeros inflating 1000 to 1)", func(t *testing.T) {
		expectCode(t, c, addr, regReq(true, zeroBomb(t, 16<<20)), remoting.SystemError, "RegisterBrokerBody")
	})
	client("register body declaring a topic past the inflation cap", func(t *testing.T) {
		raw := append(manyTopicsLayout(0)[:4+len(`{"counter":1,"timestamp":1}`)], 0, 0, 0, 1, 0x01, 0x40, 0, 0)
		expectCode(t, c, addr, regReq(true, deflate(t, append(raw, make([]byte, 1<<20)...))), remoting.SystemError, "more than")
	})
	client("register body that is not JSON", func(t *testing.T) {
		expectCode(t, c, addr, regReq(false, []byte("{not json")), remoting.SystemError, "RegisterBrokerBody")
	})
	client("register without brokerName", func(t *testing.T) {
		req := regReq(false, nil)
		delete(req.ExtFields, "brokerName")
		expectCode(t, c, addr, req, remoting.SystemError, "brokerName")
	})
	client("register with negative version", func(t *testing.T) {
		req := regReq(false, nil)
		req.Version = -5
		expectCode(t, c, addr, req, remoting.SystemError, "version")
	})
	client("register with a wrong body CRC", func(t *testing.T) {
		req := regReq(false, []byte(`{}`))
		req.ExtFields["bodyCrc32"] = "12345"
		expectCode(t, c, addr, req, remoting.SystemError, "crc32")
	})
	client("unknown request code", func(t *testing.T) {
		expectCode(t, c, addr, &remoting.Command{Code: 9999}, remoting.RequestCodeNotSupported, "not supported")
	})
	client("route query without topic", func(t *testing.T) {
		code, _ := invokeCode(t, c, addr, &remoting.Command{Code: remoting.GetRouteInfoByTopic})
		if code == remoting.Success {
			t.Fatal("a route query without topic succeeded")
		}
	})
	// Client port: access control.
	kvPut := func() *remoting.Command {
		return &remoting.Command{Code: remoting.PutKVConfig, ExtFields: map[string]string{"namespace": "ns", "key": "k", "value": "evil"}}
	}
	client("unsigned PUT_KV_CONFIG", func(t *testing.T) { expectCode(t, c, addr, kvPut(), remoting.NoPermission, "not signed") })
	client("PUT_KV_CONFIG signed with a wrong secret", func(t *testing.T) {
		expectCode(t, c, addr, signedRequest(kvPut(), catAdminKey, "wrongSecret"), remoting.NoPermission, "signature")
	})
	client("PUT_KV_CONFIG with an unknown access key", func(t *testing.T) {
		expectCode(t, c, addr, signedRequest(kvPut(), "nobody99", catAdminSecret), remoting.NoPermission, "no account")
	})
	client("PUT_KV_CONFIG by a non-admin account", func(t *testing.T) {
		expectCode(t, c, addr, signedRequest(kvPut(), catUserKey, catUserSecret), remoting.NoPermission, "not an admin")
	})
	client("PUT_KV_CONFIG with a field changed after signing", func(t *testing.T) {
		req := signedRequest(kvPut(), catAdminKey, catAdminSecret)
		req.ExtFields["value"] = "changed"
		expectCode(t, c, addr, req, remoting.NoPermission, "signature")
	})
	client("unsigned WIPE_WRITE_PERM_OF_BROKER", func(t *testing.T) {
		expectCode(t, c, addr, &remoting.Command{Code: remoting.WipeWritePermOfBroker, ExtFields: map[string]string{"brokerName": "broker-a"}}, remoting.NoPermission, "not signed")
	})
	client("unsigned DELETE_TOPIC_IN_NAMESRV", func(t *testing.T) {
		expectCode(t, c, addr, &remoting.Command{Code: remoting.DeleteTopicInNameSrv, ExtFields: map[string]string{"topic": "TopicCat"}}, remoting.NoPermission, "not signed")
	})
	client("unsigned DELETE_KV_CONFIG", func(t *testing.T) {
		expectCode(t, c, addr, &remoting.Command{Code: remoting.DeleteKVConfig, ExtFields: map[string]string{"namespace": "ns", "key": "k"}}, remoting.NoPermission, "not signed")
	})
	for _, key := range []string{"listenPort", "clusterKeyFile", "aclMode", "httpTokenFile", "max-request-memory"} {
		client("signed UPDATE_NAMESRV_CONFIG of "+key, func(t *testing.T) {
			req := signedRequest(&remoting.Command{Code: remoting.UpdateNamesrvConfig, Body: []byte(key + "=1\n")}, catAdminKey, catAdminSecret)
			expectCode(t, c, addr, req, remoting.NoPermission, "black list")
		})
	}
	// Client port: memory. The budget, not the senders, bounds the heap.
	client("flood of compressed registrations that inflate to 70 MiB of decoded topics", func(t *testing.T) {
		bomb := encode(t, regReq(true, deflate(t, manyTopicsLayout(400_000))))
		var frames [][]byte
		for range 16 {
			frames = append(frames, bomb)
		}
		for _, code := range flood(t, addr, 4, frames) {
			if code != remoting.SystemBusy && code != remoting.SystemError {
				t.Fatalf("a registration beyond the budget was answered %d", code)
			}
		}
	})
	client("flood of 8 MiB frames", func(t *testing.T) {
		big := encode(t, &remoting.Command{Code: 9999, Body: make([]byte, 8<<20)})
		var frames [][]byte
		for range 24 {
			frames = append(frames, big)
		}
		busy := 0
		for _, code := range flood(t, addr, 8, frames) {
			switch code {
			case remoting.SystemBusy:
				busy++
			case remoting.RequestCodeNotSupported:
			default:
				t.Fatalf("unexpected answer %d", code)
			}
		}
		t.Logf("%d of 24 frames answered SYSTEM_BUSY", busy)
	})

	// Cluster port: without the key nothing gets through.
	putCmd, _ := fsm.Encode(fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "evil", HasValue: true})
	refused := func(name string, call func() error) {
		clusterPort(name, func(t *testing.T) {
			before := metricValue(t, p, "ns_cluster_conns_rejected_total")
			if err := call(); err == nil {
				t.Fatal("answered")
			}
			poll.For(t, 10*time.Second, "refusal counted", func() bool {
				return metricValue(t, p, "ns_cluster_conns_rejected_total") > before
			})
		})
	}
	refused("Forward(PutKV) without the key", func() error {
		return outsiderRPC(p.ClusterAddr, "Forward", &cluster.ForwardArgs{From: "x", Command: putCmd}, &cluster.LeaderReply{})
	})
	refused("Join without the key", func() error {
		return outsiderRPC(p.ClusterAddr, "Join", &cluster.JoinArgs{ID: "evil", ClusterAddr: "127.0.0.1:1"}, &cluster.LeaderReply{})
	})
	refused("Remove without the key", func() error {
		return outsiderRPC(p.ClusterAddr, "Remove", &cluster.RemoveArgs{ID: "n1", Force: true}, &cluster.LeaderReply{})
	})
	refused("Heartbeats without the key", func() error {
		return outsiderRPC(p.ClusterAddr, "Heartbeats", &cluster.HeartbeatArgs{From: "x"}, &cluster.LeaderReply{})
	})
	refused("Raft AppendEntries without the key", func() error { return outsiderAppendEntries(t, p.ClusterAddr) })
	for _, f := range []struct {
		name string
		size int
	}{{"random bytes in place of the key proof", 64}, {"a short answer to the challenge", 10}, {"a megabyte of garbage", 1 << 20}} {
		clusterPort(f.name, func(t *testing.T) {
			junk := make([]byte, f.size)
			rand.Read(junk)
			expectClosed(t, p.ClusterAddr, junk, false)
		})
	}

	// Admin HTTP.
	for _, r := range []struct{ method, path string }{
		{http.MethodPost, "/v1/peers"}, {http.MethodDelete, "/v1/peers/n1"}, {http.MethodPost, "/v1/leader/transfer"},
		{http.MethodGet, "/v1/snapshot"}, {http.MethodPost, "/v1/snapshot"},
	} {
		admin(r.method+" "+r.path+" without the token", func(t *testing.T) {
			if code := adminRequest(t, p, r.method, r.path, "", strings.NewReader(`{"id":"evil","address":"127.0.0.1:1"}`)); code != http.StatusUnauthorized {
				t.Fatalf("answered %d", code)
			}
		})
	}
	admin("POST /v1/peers with a wrong token", func(t *testing.T) {
		if code := adminRequest(t, p, http.MethodPost, "/v1/peers", "guess", strings.NewReader(`{"id":"evil","address":"127.0.0.1:1"}`)); code != http.StatusUnauthorized {
			t.Fatalf("answered %d", code)
		}
	})
	admin("POST /v1/peers with the token and a broken body", func(t *testing.T) {
		if code := adminRequest(t, p, http.MethodPost, "/v1/peers", catToken, strings.NewReader(`{"id":`)); code != http.StatusBadRequest {
			t.Fatalf("answered %d", code)
		}
	})
	admin("snapshot restore of garbage", func(t *testing.T) {
		if code := adminRequest(t, p, http.MethodPost, "/v1/snapshot", catToken, strings.NewReader("garbage")); code != http.StatusBadRequest {
			t.Fatalf("answered %d", code)
		}
	})
	admin("snapshot restore over the size limit", func(t *testing.T) {
		if code := adminRequest(t, p, http.MethodPost, "/v1/snapshot", catToken, bytes.NewReader(make([]byte, 2<<20))); code != http.StatusRequestEntityTooLarge {
			t.Fatalf("answered %d", code)
		}
	})
	admin("headers over 16 KiB", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+p.HTTPAddr+"/livez", nil)
		req.Header.Set("X-Big", strings.Repeat("a", 64<<10))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return // the member closed the connection: also a refusal
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("answered %d", resp.StatusCode)
		}
	})

	for _, bc := range cases {
		t.Run(bc.port+"/"+bc.name, func(t *testing.T) {
			bc.run(t)
			if p.Exited() {
				t.Fatalf("the member died:\n%s", p.Log())
			}
			if code := adminRequest(t, p, http.MethodGet, "/livez", "", nil); code != 200 {
				t.Fatalf("/livez = %d", code)
			}
			if got := fingerprint(t); got != want {
				t.Fatalf("state changed:\n got %s\nwant %s", got, want)
			}
		})
	}
	if n := len(cases); n < 40 {
		t.Fatalf("the catalogue has %d cases, want at least 40", n)
	}
	// The budget held: what the floods took is bounded by it, not by them.
	if peak := metricValue(t, p, "ns_request_memory_peak_bytes"); peak > catBudget {
		t.Fatalf("request memory peaked at %v, over the %d budget", peak, catBudget)
	}
	heapAfter := metricValue(t, p, "go_memstats_heap_sys_bytes")
	// Between collections the heap may reach (1 + gcPercent/100) times what
	// is live: four times the budget at the member's default of 300.
	headroom := 1 + metricValue(t, p, "go_gc_gogc_percent")/100
	const margin = 96 << 20 // the rest of the process
	if grew := heapAfter - heapBefore; grew > headroom*catBudget+margin {
		t.Fatalf("heap grew by %.0f MiB, over %.1f times the %d MiB budget plus %d MiB (the GC target's headroom)",
			grew/(1<<20), headroom, catBudget>>20, margin>>20)
	}
	t.Logf("heap grew by %.1f MiB; request memory peaked at %.1f MiB of %d MiB",
		(heapAfter-heapBefore)/(1<<20), metricValue(t, p, "ns_request_memory_peak_bytes")/(1<<20), catBudget>>20)
	if metricValue(t, p, "ns_busy_total") == 0 {
		t.Fatal("no request was refused SYSTEM_BUSY: the floods did not reach the budget")
	}

	t.Run("datadir", func(t *testing.T) { dataDirCatalogue(t, p) })
}

// dataDirCatalogue starts raftns on damaged or contested data dirs: each
// start must fail with a clear message and no panic, or, where recovery is
// safe, start and say what it did.
func dataDirCatalogue(t *testing.T, running *proc) {
	start := func(t *testing.T, dataDir string, extra ...string) (int, string) {
		t.Helper()
		args := append([]string{"--data-dir", dataDir, "--listen", "127.0.0.1:0", "--cluster-addr", "127.0.0.1:0", "--http-addr", ""}, extra...)
		cmd := exec.Command(raftnsBinary(t), args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("raftns did not exit on a bad data dir:\n%s", out.String())
		}
		if strings.Contains(out.String(), "panic") {
			t.Fatalf("panic:\n%s", out.String())
		}
		return cmd.ProcessState.ExitCode(), out.String()
	}
	expectExit := func(t *testing.T, dataDir string, wants ...string) {
		t.Helper()
		code, out := start(t, dataDir)
		if code == 0 {
			t.Fatalf("started on a bad data dir:\n%s", out)
		}
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Fatalf("message lacks %q:\n%s", w, out)
			}
		}
	}
	t.Run("second process on a data dir in use", func(t *testing.T) {
		expectExit(t, running.DataDir, filepath.Join(running.DataDir, "raft", "LOCK"), fmt.Sprintf("pid %d", running.Pid()))
		if running.Exited() {
			t.Fatal("the running member died")
		}
	})
	damaged := func(name string, prepare func(t *testing.T, dir string), wants ...string) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "raft"), 0o755); err != nil {
				t.Fatal(err)
			}
			prepare(t, dir)
			expectExit(t, dir, wants...)
		})
	}
	damaged("raft log that is not a database", func(t *testing.T, dir string) {
		os.WriteFile(filepath.Join(dir, "raft", "raft.db"), bytes.Repeat([]byte("garbage!"), 4096), 0o644)
	}, "raft.db")
	damaged("raft log truncated to a few bytes", func(t *testing.T, dir string) {
		os.WriteFile(filepath.Join(dir, "raft", "raft.db"), []byte{1, 2, 3}, 0o644)
	}, "raft.db")
	damaged("persisted settings with a bad value", func(t *testing.T, dir string) {
		os.WriteFile(filepath.Join(dir, "namesrv.properties"), []byte("orderMessageEnable=maybe\n"), 0o644)
	}, "namesrv.properties", "orderMessageEnable")
	damaged("snapshot whose metadata is garbage and no log", func(t *testing.T, dir string) {
		snap := filepath.Join(dir, "raft", "snapshots", "2-100-1700000000000")
		os.MkdirAll(snap, 0o755)
		os.WriteFile(filepath.Join(snap, "meta.json"), []byte("{garbage"), 0o644)
		os.WriteFile(filepath.Join(snap, "state.bin"), []byte("garbage"), 0o644)
	}, "state.bin", "Recovery")
	t.Run("data dir of another member", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "node-id"), []byte("someone-else\n"), 0o644)
		code, out := start(t, dir, "--id", "n1")
		if code == 0 || !strings.Contains(out, "someone-else") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	// A snapshot damaged after a clean stop, while the log still covers
	// it, is moved aside and the member starts with its state.
	t.Run("damaged newest snapshot the log covers", func(t *testing.T) {
		q := newProc(t, "n1")
		q.start()
		q.waitReady()
		c := newClient(t)
		ctx := ctxT(t, time.Minute)
		if err := c.PutKV(ctx, q.ClientAddr, "ns", "kept", "yes"); err != nil {
			t.Fatal(err)
		}
		if r := adminRequest(t, q, http.MethodGet, "/v1/snapshot", "", nil); r != 200 {
			t.Fatalf("snapshot save = %d", r)
		}
		q.terminate()
		snaps, _ := filepath.Glob(filepath.Join(q.DataDir, "raft", "snapshots", "*", "state.bin"))
		if len(snaps) == 0 {
			t.Fatal("no snapshot on disk")
		}
		if err := os.Truncate(snaps[len(snaps)-1], 10); err != nil {
			t.Fatal(err)
		}
		q.start()
		q.waitReady()
		if v, err := c.GetKV(ctx, q.ClientAddr, "ns", "kept"); err != nil || v != "yes" {
			t.Fatalf("KV after the fallback: %q, %v", v, err)
		}
		if !strings.Contains(q.Log(), "damaged snapshot moved aside") {
			t.Fatalf("no log line about the damaged snapshot:\n%s", q.Log())
		}
	})
}
