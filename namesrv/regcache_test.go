package namesrv

import (
	"context"
	"hash/crc32"
	"strconv"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// countingCluster counts which registration path the handler took.
type countingCluster struct {
	*benchCluster
	decoded, recognised int
	registered          map[state.BrokerKey]bool
}

func (c *countingCluster) Register(ctx context.Context, cmd *state.RegisterBroker) (state.RegisterResult, error) {
	c.decoded++
	c.registered[cmd.Key()] = true
	return c.benchCluster.Register(ctx, cmd)
}

func (c *countingCluster) RegisterUnchanged(key state.BrokerKey) bool {
	if !c.registered[key] {
		return false
	}
	c.recognised++
	return true
}

// registerRequest is a REGISTER_BROKER of broker-0 as a broker sends it.
func registerRequest(t testing.TB, topics int, counter int64) *remoting.Command {
	t.Helper()
	rb := &body.RegisterBody{DataVersion: state.DataVersion{Timestamp: 1, Counter: counter},
		TopicConfigs: benchTopicConfigs(topics), HasFilterServerList: true}
	raw, err := body.EncodeRegisterBody(rb, false, 479)
	if err != nil {
		t.Fatal(err)
	}
	return &remoting.Command{Code: remoting.RegisterBroker, Language: "JAVA", Version: 479, Body: raw,
		ExtFields: map[string]string{"brokerName": "broker-0", "brokerAddr": "10.0.0.1:10911", "clusterName": "bench",
			"haServerAddr": "10.0.0.1:10912", "brokerId": "0", "compressed": "false",
			"bodyCrc32": strconv.Itoa(int(crc32.ChecksumIEEE(raw) & 0x7FFFFFFF))}}
}

// countingServer is a server on a countingCluster and a send that fails
// the test unless a registration is answered with SUCCESS.
func countingServer(t *testing.T) (*Server, *countingCluster, func(*remoting.Command) *remoting.Command) {
	cc := &countingCluster{benchCluster: &benchCluster{f: fsm.New(hclog.NewNullLogger())}, registered: map[state.BrokerKey]bool{}}
	s := New(DefaultConfig(), cc)
	conn := &remoting.Conn{}
	return s, cc, func(r *remoting.Command) *remoting.Command {
		t.Helper()
		resp := s.ServeRemoting(context.Background(), conn, r)
		if resp.Code != remoting.Success {
			t.Fatalf("registration answered %d %s", resp.Code, resp.Remark)
		}
		return resp
	}
}

func TestRegistrationCache_RecognisesOnlyTheSameRegistrationAtTheSameGeneration(t *testing.T) {
	s, cc, send := countingServer(t)
	conn := &remoting.Conn{}
	want := func(step string, decoded, recognised int) {
		t.Helper()
		if cc.decoded != decoded || cc.recognised != recognised {
			t.Fatalf("%s: decoded %d, recognised %d; want %d and %d", step, cc.decoded, cc.recognised, decoded, recognised)
		}
	}
	first := registerRequest(t, 10, 1)
	send(first)
	want("first registration (a write)", 1, 0)
	send(registerRequest(t, 10, 1))
	want("first heartbeat after the write (the write moved the generation)", 2, 0)
	send(registerRequest(t, 10, 1))
	want("second heartbeat", 2, 1)
	send(registerRequest(t, 10, 1))
	want("third heartbeat", 2, 2)

	changedHeader := registerRequest(t, 10, 1)
	changedHeader.ExtFields["haServerAddr"] = "10.0.0.9:10912"
	send(changedHeader)
	want("a changed header field", 3, 2)

	send(registerRequest(t, 10, 2))
	want("a changed body", 4, 2)

	// Another broker's write moves the generation: the next heartbeat of
	// broker-0 is decoded again, then recognised.
	other := registerRequest(t, 3, 1)
	other.ExtFields["brokerAddr"] = "10.0.0.2:10911"
	other.ExtFields["brokerName"] = "broker-1"
	send(other)
	send(registerRequest(t, 10, 2))
	want("heartbeat after another broker's write", 6, 2)
	send(registerRequest(t, 10, 2))
	want("heartbeat after that", 6, 3)

	// A body that no longer matches its CRC is not the accepted one: it is
	// decoded and refused, never recognised.
	bad := registerRequest(t, 10, 2)
	bad.Body[len(bad.Body)/2] ^= 1
	if resp := s.ServeRemoting(context.Background(), conn, bad); resp.Code != remoting.SystemError {
		t.Fatalf("corrupted body answered %d %s, want SYSTEM_ERROR", resp.Code, resp.Remark)
	}
	want("corrupted body", 6, 3)

	// A broker the cluster no longer knows (expired) takes the full path.
	delete(cc.registered, state.BrokerKey{Cluster: "bench", Addr: "10.0.0.1:10911"})
	send(registerRequest(t, 10, 2))
	want("heartbeat of a broker that is gone", 7, 3)
}

func TestRegistrationCache_FingerprintSeparatesFields(t *testing.T) {
	rc := newRegistrationCache(nil)
	a := &remoting.Command{Version: 479, ExtFields: map[string]string{"brokerName": "ab", "brokerAddr": "c"}}
	b := &remoting.Command{Version: 479, ExtFields: map[string]string{"brokerName": "a", "brokerAddr": "bc"}}
	c := &remoting.Command{Version: 409, ExtFields: map[string]string{"brokerName": "ab", "brokerAddr": "c"}}
	_, sa := rc.fingerprint(a)
	_, sb := rc.fingerprint(b)
	_, sc := rc.fingerprint(c)
	_, sa2 := rc.fingerprint(a)
	if sa == sb || sa == sc || sa != sa2 {
		t.Fatalf("fingerprints %x %x %x %x: want the same request alike and the others different", sa, sb, sc, sa2)
	}
}

// BenchmarkServer_RegisterUnchanged is a heartbeat (an unchanged
// REGISTER_BROKER) through the dispatcher, recognised without decoding: what
// a member pays every 30 s per broker.
func BenchmarkServer_RegisterUnchanged(b *testing.B) {
	for _, topics := range []int{10, 1000, 10000} {
		b.Run("topics="+strconv.Itoa(topics), func(b *testing.B) {
			s := New(DefaultConfig(), &benchCluster{f: fsm.New(hclog.NewNullLogger())})
			conn := &remoting.Conn{}
			req := registerRequest(b, topics, 1)
			for range 2 { // the write, then the first heartbeat fills the cache
				if resp := s.ServeRemoting(context.Background(), conn, req); resp.Code != remoting.Success {
					b.Fatalf("registration answered %d %s", resp.Code, resp.Remark)
				}
			}
			b.SetBytes(int64(len(req.Body)))
			b.ReportAllocs()
			for b.Loop() {
				if resp := s.ServeRemoting(context.Background(), conn, req); resp.Code != remoting.Success {
					b.Fatalf("heartbeat answered %d %s", resp.Code, resp.Remark)
				}
			}
		})
	}
}

// TestServer_BrokerChurnLeavesNothingBehind registers, heartbeats and
// unregisters 10,000 brokers, each under a new name and address, on one
// connection: the member's per-broker tables end as empty as they began.
func TestServer_BrokerChurnLeavesNothingBehind(t *testing.T) {
	bc := &benchCluster{f: fsm.New(hclog.NewNullLogger())}
	s := New(DefaultConfig(), bc)
	conn := &remoting.Conn{}
	for i := range 10000 {
		name, addr := "churn-"+strconv.Itoa(i), "10.1."+strconv.Itoa(i/250)+"."+strconv.Itoa(i%250)+":10911"
		reg := func() *remoting.Command {
			r := registerRequest(t, 2, 1)
			r.ExtFields["brokerName"], r.ExtFields["brokerAddr"] = name, addr
			return r
		}
		unreg := &remoting.Command{Code: remoting.UnregisterBroker, Language: "JAVA", Version: 479,
			ExtFields: map[string]string{"brokerName": name, "brokerAddr": addr, "clusterName": "bench", "brokerId": "0"}}
		for _, req := range []*remoting.Command{reg(), reg(), reg(), unreg} {
			if resp := s.ServeRemoting(context.Background(), conn, req); resp.Code != remoting.Success {
				t.Fatalf("broker %d: request %d answered %d %s", i, req.Code, resp.Code, resp.Remark)
			}
		}
	}
	if n := len(s.regCache.m); n != 0 {
		t.Errorf("registration cache holds %d entries after every broker unregistered, want 0", n)
	}
	if k, c := len(s.brokers.byKey), len(s.brokers.byConn[conn.ID()]); k != 0 || c != 0 {
		t.Errorf("broker connections hold %d brokers, %d on the connection, after every broker unregistered; want 0", k, c)
	}
	if n := len(bc.f.ClusterInfo().BrokerAddrTable); n != 0 {
		t.Errorf("%d broker groups left after every broker unregistered, want 0", n)
	}
}
