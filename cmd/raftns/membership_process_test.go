package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// wantAddressService waits until every member of askAll answers the
// client addresses of listed, in member-id order, on its address service.
func wantAddressService(t *testing.T, askAll, listed []*proc) {
	t.Helper()
	var addrs []string
	for _, p := range listed {
		addrs = append(addrs, p.ClientAddr)
	}
	want := strings.Join(addrs, ";")
	poll.For(t, 30*time.Second, "every member's address service to answer "+want, func() bool {
		for _, p := range askAll {
			if code, body := addressService(p); code != http.StatusOK || body != want {
				return false
			}
		}
		return true
	})
}

// addressService asks p's admin port for GET /rocketmq/nsaddr.
func addressService(p *proc) (int, string) {
	resp, err := p.Get(context.Background(), "/rocketmq/nsaddr")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// wantRemoved waits until p, still running, says it was removed, and
// checks that it refuses a client read with a remark saying so and that
// its Raft node went quiet (no election after it found out).
func wantRemoved(t *testing.T, c *nsclient.Client, p *proc, topic string) {
	t.Helper()
	poll.For(t, 30*time.Second, p.ID+" to say it was removed", func() bool {
		st, ok := p.status()
		return ok && st.Membership == adminapi.MembershipRemoved && st.ReadyReason == "removed from the cluster"
	})
	_, err := c.GetRoute(ctxT(t, 10*time.Second), p.ClientAddr, topic)
	var re *nsclient.ResponseError
	if !errors.As(err, &re) || !strings.Contains(re.Remark, "removed from the cluster") {
		t.Fatalf("a read on the removed %s: %v, want a refusal whose remark says it was removed", p.ID, err)
	}
	if code, body := addressService(p); code != http.StatusServiceUnavailable {
		t.Fatalf("the removed member's address service answered %d %q", code, body)
	}
	log := p.Log()
	i := strings.Index(log, "removed from the cluster: this member stops its Raft node")
	if i < 0 || strings.Contains(log[i:], "election") {
		t.Fatalf("%s's log does not say it was removed, or shows an election after:\n%s", p.ID, log)
	}
}

// adminDo sends method path to p's admin port, as raftnsctl does, and
// decodes the JSON answer into out; it fails the test on anything but 200.
func adminDo(t *testing.T, p *proc, method, path string, out any) {
	t.Helper()
	resp, err := p.Do(ctxT(t, 30*time.Second), method, path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("%s %s: HTTP %d (%v)", method, path, resp.StatusCode, err)
	}
}

// allowDrains raises the cluster version (raftnsctl upgrade finalize), so
// that removals drain from now on: a new cluster reaches it by itself only
// once its leader has heard from every member.
func allowDrains(t *testing.T, via *proc) {
	t.Helper()
	var res adminapi.FinalizeResult
	adminDo(t, via, http.MethodPost, "/v1/upgrade/finalize", &res)
}

// removeVia sends what "raftnsctl peers remove ID --drain DRAIN" sends,
// without waiting for the drain.
func removeVia(t *testing.T, via *proc, id string, drain time.Duration) adminapi.RemovePeer {
	t.Helper()
	var res adminapi.RemovePeer
	adminDo(t, via, http.MethodDelete, "/v1/peers/"+id+"?drain="+drain.String(), &res)
	return res
}

// TestProcess_GoClientFindsTheMembersThroughTheAddressService gives the
// real Go client no name-server address, only HttpResolver on one member's
// address service: it resolves the three members, sends, and after a
// member is removed (and stopped) the resolver answers the two left while
// the producer keeps sending.
func TestProcess_GoClientFindsTheMembersThroughTheAddressService(t *testing.T) {
	ps := startCluster(t, 3)
	fb := startFakeBroker(t)
	c := newClient(t)
	ctx := ctxT(t, time.Minute)
	if _, err := c.RegisterBroker(ctx, ps[1].ClientAddr, brokerRegistration("DefaultCluster", "broker-a", fb.addr, 0, 1, "TopicTest")); err != nil {
		t.Fatal(err)
	}
	allowDrains(t, ps[0])
	instance := fmt.Sprintf("raftns-test-%d", rand.Uint64())
	resolver := primitive.NewHttpResolver(instance, "http://"+ps[0].HTTPAddr+"/rocketmq/nsaddr")
	t.Cleanup(func() { removeResolverSnapshot(instance) })
	want := ps[0].ClientAddr + " " + ps[1].ClientAddr + " " + ps[2].ClientAddr
	poll.For(t, 10*time.Second, "the resolver to answer the three members", func() bool {
		return strings.Join(resolver.Resolve(), " ") == want
	})
	prod, err := rocketmq.NewProducer(producer.WithNsResolver(resolver), producer.WithInstanceName(instance), producer.WithRetry(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := prod.Start(); err != nil {
		t.Fatal(err)
	}
	defer prod.Shutdown()
	send := func() {
		t.Helper()
		if _, err := prod.SendSync(ctx, primitive.NewMessage("TopicTest", []byte("hello"))); err != nil {
			t.Fatalf("send: %v", err)
		}
	}
	send()
	gone := ps[2]
	if res := removeVia(t, ps[0], gone.ID, time.Second); res.Result != adminapi.RemoveResultDraining {
		t.Fatalf("remove %s: %+v", gone.ID, res)
	}
	poll.For(t, 10*time.Second, "the resolver to leave the drained member out", func() bool {
		return strings.Join(resolver.Resolve(), " ") == ps[0].ClientAddr+" "+ps[1].ClientAddr
	})
	send()
	wantRemoved(t, c, gone, "TopicTest")
	gone.Kill()
	send()
	if n := fb.sends(); n != 3 {
		t.Fatalf("the broker received %d sends, want 3", n)
	}
}

// removeResolverSnapshot deletes the name-server list HttpResolver saved
// under the user's home directory for instance.
func removeResolverSnapshot(instance string) {
	if u, err := user.Current(); err == nil {
		os.Remove(filepath.Join(u.HomeDir, "logs", "rocketmq-go", "snapshot", "nameserver_addr-"+instance))
	}
}

// roundRobin is a TCP load balancer on 127.0.0.1: each accepted
// connection goes to the next backend that accepts it, as a Kubernetes
// Service (ready pods only) or a load balancer with health checks in front
// of the members would send it.
type roundRobin struct {
	ln       net.Listener
	backends []string
	next     atomic.Uint64
}

func startRoundRobin(t *testing.T, backends []string) *roundRobin {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rr := &roundRobin{ln: ln, backends: backends}
	t.Cleanup(func() { ln.Close() })
	go rr.serve()
	return rr
}

func (rr *roundRobin) addr() string { return rr.ln.Addr().String() }

func (rr *roundRobin) serve() {
	for {
		in, err := rr.ln.Accept()
		if err != nil {
			return
		}
		first := rr.next.Add(1)
		go func() {
			defer in.Close()
			for i := range uint64(len(rr.backends)) {
				out, err := net.DialTimeout("tcp", rr.backends[(first+i)%uint64(len(rr.backends))], time.Second)
				if err != nil {
					continue
				}
				defer out.Close()
				go io.Copy(out, in)
				io.Copy(in, out)
				return
			}
		}()
	}
}

// TestProcess_OneAddressInFrontOfEveryMemberIsEnough puts one address, a
// load balancer over the three members, where brokers and clients would
// have their namesrvAddr. Brokers registering through it land on different
// members, and every member answers every broker's route: unlike reference
// NameServers behind one name, which would each know only the brokers that
// reached them. With a member killed, reads through the address go on.
func TestProcess_OneAddressInFrontOfEveryMemberIsEnough(t *testing.T) {
	ps := startCluster(t, 3)
	lb := startRoundRobin(t, []string{ps[0].ClientAddr, ps[1].ClientAddr, ps[2].ClientAddr})
	ctx := ctxT(t, time.Minute)
	for i, name := range []string{"broker-a", "broker-b", "broker-c"} {
		broker := newClient(t) // a connection of its own: the next member
		reg := brokerRegistration("DefaultCluster", name, fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1, "TopicShared")
		if _, err := broker.RegisterBroker(ctx, lb.addr(), reg); err != nil {
			t.Fatalf("register %s through the one address: %v", name, err)
		}
	}
	allBrokers := func() bool {
		reader := newClient(t) // again the next member
		route, err := reader.GetRoute(ctx, lb.addr(), "TopicShared")
		return err == nil && len(route.BrokerDatas) == 3
	}
	for i := 0; i < 3; i++ {
		poll.For(t, 10*time.Second, "a read through the one address to see all three brokers", allBrokers)
	}
	leaderOf(t, ps).Kill()
	poll.For(t, 30*time.Second, "reads through the one address to go on", func() bool {
		for i := 0; i < 3; i++ {
			if !allBrokers() {
				return false
			}
		}
		return true
	})
}
