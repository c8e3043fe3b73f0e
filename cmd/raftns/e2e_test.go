package main

import (
	"context"
	"net"
	"sort"
	"sync"
	"testing"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() { rlog.SetLogLevel("error") }

// fakeBroker answers every request with SUCCESS and records the requests it
// received, so a test can tell which broker address a real client chose and
// which notices a name server sent.
type fakeBroker struct {
	addr string
	mu   sync.Mutex
	reqs []*remoting.Command
}

func startFakeBroker(t *testing.T) *fakeBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fb := &fakeBroker{addr: ln.Addr().String()}
	srv := remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			fb.mu.Lock()
			fb.reqs = append(fb.reqs, req)
			fb.mu.Unlock()
			resp := remoting.NewResponse(req, remoting.Success, "")
			resp.ExtFields = map[string]string{"msgId": "0A000001000027110000000000000000", "queueId": "0", "queueOffset": "0"}
			return resp
		}), nil)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return fb
}

// sends counts SEND_MESSAGE (10) and SEND_MESSAGE_V2 (310) requests.
func (fb *fakeBroker) sends() int {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	n := 0
	for _, r := range fb.reqs {
		if r.Code == 10 || r.Code == 310 {
			n++
		}
	}
	return n
}

// notices returns the header fields of the NOTIFY_MIN_BROKER_ID_CHANGE (905)
// requests received.
func (fb *fakeBroker) notices() []map[string]string {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	var out []map[string]string
	for _, r := range fb.reqs {
		if r.Code == 905 {
			out = append(out, r.ExtFields)
		}
	}
	return out
}

func TestProcess_SingleMemberServesTheGoClient(t *testing.T) {
	p := newProc(t, "solo")
	p.start()
	p.waitReady()
	master, slave := startFakeBroker(t), startFakeBroker(t)
	c := newClient(t)
	ctx := ctxT(t, 30*time.Second)

	reg := brokerRegistration("DefaultCluster", "broker-a", master.addr, 0, 1, "TopicTest", "TBW102")
	if _, err := c.RegisterBroker(ctx, p.ClientAddr, reg); err != nil {
		t.Fatalf("register master: %v", err)
	}
	sreg := brokerRegistration("DefaultCluster", "broker-a", slave.addr, 1, 1, "TopicTest", "TBW102")
	sreg.Compressed = true
	c49 := nsclient.New(remoting.ClientConfig{})
	c49.Version = nsclient.Version49
	defer c49.Close()
	res, err := c49.RegisterBroker(ctx, p.ClientAddr, sreg)
	if err != nil {
		t.Fatalf("register compressed slave: %v", err)
	}
	if res.MasterAddr != master.addr || res.HaServerAddr != reg.HaServerAddr {
		t.Fatalf("slave answer master=%q ha=%q, want %q %q", res.MasterAddr, res.HaServerAddr, master.addr, reg.HaServerAddr)
	}

	route, err := c.GetRoute(ctx, p.ClientAddr, "TopicTest")
	if err != nil {
		t.Fatal(err)
	}
	if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerAddrs[0] != master.addr || route.BrokerDatas[0].BrokerAddrs[1] != slave.addr {
		t.Fatalf("route brokers = %+v, want broker-a {0:%s 1:%s}", route.BrokerDatas, master.addr, slave.addr)
	}

	adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{p.ClientAddr})))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	topics, err := adm.FetchAllTopicList(ctx)
	if err != nil {
		t.Fatalf("go admin topic list: %v", err)
	}
	sort.Strings(topics.TopicList)
	if len(topics.TopicList) != 2 || topics.TopicList[0] != "TBW102" || topics.TopicList[1] != "TopicTest" {
		t.Fatalf("go admin topics = %v", topics.TopicList)
	}
	queues, err := adm.FetchPublishMessageQueues(ctx, "TopicTest")
	if err != nil {
		t.Fatalf("go admin publish queues: %v", err)
	}
	if len(queues) != 4 {
		t.Fatalf("go admin sees %d queues, want 4", len(queues))
	}
	for _, q := range queues {
		if q.BrokerName != "broker-a" {
			t.Fatalf("queue on %q, want broker-a", q.BrokerName)
		}
	}

	// The producer resolves the route itself and must pick the master's
	// address (id 0) from the unquoted brokerAddrs it gets as version 317.
	prod, err := rocketmq.NewProducer(producer.WithNsResolver(primitive.NewPassthroughResolver([]string{p.ClientAddr})),
		producer.WithInstanceName("e2e-single"), producer.WithRetry(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := prod.Start(); err != nil {
		t.Fatal(err)
	}
	defer prod.Shutdown()
	if _, err := prod.SendSync(ctx, primitive.NewMessage("TopicTest", []byte("hello"))); err != nil {
		t.Fatalf("go producer send: %v", err)
	}
	if master.sends() != 1 || slave.sends() != 0 {
		t.Fatalf("sends: master %d, slave %d; want the producer to route to the master only", master.sends(), slave.sends())
	}
}

func TestProcess_UnchangedReRegistrationAppendsNoLogEntry(t *testing.T) {
	p := newProc(t, "solo")
	p.start()
	p.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 30*time.Second)
	reg := brokerRegistration("c1", "broker-a", "127.0.0.1:10911", 0, 1, "T1", "T2")
	if _, err := c.RegisterBroker(ctx, p.ClientAddr, reg); err != nil {
		t.Fatal(err)
	}
	// The member's own housekeeping (cluster version, settings, member
	// records) may append an entry during a window: such a window is
	// measured again. Re-registrations that appended entries would move
	// the log in every window.
	poll.For(t, 30*time.Second, "five unchanged re-registrations that leave the log where it was", func() bool {
		before := lastIndex(t, p)
		for i := 0; i < 5; i++ {
			if _, err := c.RegisterBroker(ctx, p.ClientAddr, reg); err != nil {
				t.Fatal(err)
			}
		}
		return lastIndex(t, p) == before
	})
	if n := metricValue(t, p, "ns_register_written_total"); n != 1 {
		t.Fatalf("%v registrations written, want only the first", n)
	}
	poll.For(t, 30*time.Second, "a changed registration that moves the log by one entry", func() bool {
		before := lastIndex(t, p)
		reg.Body.DataVersion.Counter++
		if _, err := c.RegisterBroker(ctx, p.ClientAddr, reg); err != nil {
			t.Fatal(err)
		}
		return lastIndex(t, p) == before+1
	})
}

func lastIndex(t *testing.T, p *proc) uint64 {
	t.Helper()
	st, ok := p.status()
	if !ok {
		t.Fatalf("%s status unavailable", p.ID)
	}
	return st.LastIndex
}

func TestProcess_RestartAfterKillServesStateAndExpiresSilentBrokers(t *testing.T) {
	const expiry = 3 * time.Second
	p := newProc(t, "solo", "--broker-expiry", expiry.String(), "--scan-interval", "200ms")
	p.start()
	p.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 60*time.Second)
	reg := brokerRegistration("c1", "broker-a", "127.0.0.1:10911", 0, 1, "TopicA")
	if _, err := c.RegisterBroker(ctx, p.ClientAddr, reg); err != nil {
		t.Fatal(err)
	}
	if err := c.PutKV(ctx, p.ClientAddr, "ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4"); err != nil {
		t.Fatal(err)
	}
	c.Close()

	p.Kill()
	p.start()
	p.waitReady()
	restarted := time.Now()
	c = newClient(t)
	route, err := c.GetRoute(ctx, p.ClientAddr, "TopicA")
	if err != nil {
		t.Fatalf("route after restart: %v", err)
	}
	if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerAddrs[0] != reg.BrokerAddr {
		t.Fatalf("route after restart = %+v", route)
	}
	if v, err := c.GetKV(ctx, p.ClientAddr, "ORDER_TOPIC_CONFIG", "TopicA"); err != nil || v != "broker-a:4" {
		t.Fatalf("KV after restart = %q, %v", v, err)
	}
	poll.For(t, 30*time.Second, "the silent broker to expire", func() bool {
		_, err := c.GetRoute(ctx, p.ClientAddr, "TopicA")
		return nsclient.IsCode(err, remoting.TopicNotExist)
	})
	if elapsed := time.Since(restarted); elapsed < expiry-time.Second {
		t.Fatalf("expired %v after the restart, before its expiry of %v", elapsed, expiry)
	}
}
