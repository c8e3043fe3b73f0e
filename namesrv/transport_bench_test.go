package namesrv

import (
	"context"
	"fmt"
	"hash/crc32"
	"strconv"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// benchCluster is a Cluster without Raft: writes apply straight to the
// FSM, so that the benchmarks measure the handlers alone.
type benchCluster struct {
	f     *fsm.FSM
	index uint64
}

func (c *benchCluster) Apply(_ context.Context, t fsm.CommandType, cmd any) (any, error) {
	buf, err := fsm.Encode(t, cmd)
	if err != nil {
		return nil, err
	}
	c.index++
	return c.f.Apply(fsm.Entry{Index: c.index, Command: true, Data: buf}), nil
}

func (c *benchCluster) Register(ctx context.Context, cmd *state.RegisterBroker) (state.RegisterResult, error) {
	if !c.f.WouldChange(cmd) {
		return c.f.RegisterResult(cmd), nil
	}
	res, err := c.Apply(ctx, fsm.RegisterBrokerType, cmd)
	r, _ := res.(state.RegisterResult)
	return r, err
}

func (c *benchCluster) ApplyLeaderOnly(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	return c.Apply(ctx, t, cmd)
}

func (c *benchCluster) Heartbeat(state.BrokerKey) bool         { return true }
func (c *benchCluster) RegisterUnchanged(state.BrokerKey) bool { return true }
func (c *benchCluster) RecordAudit(context.Context, state.AuditRecord) error {
	return nil
}
func (c *benchCluster) BrokerConnected(state.BrokerKey)    {}
func (c *benchCluster) BrokerDisconnected(state.BrokerKey) {}
func (c *benchCluster) Ready() (bool, string)              { return true, "" }
func (c *benchCluster) Removed() bool                      { return false }
func (c *benchCluster) Visible() bool                      { return true }
func (c *benchCluster) AwaitVisible(context.Context) error { return nil }
func (c *benchCluster) LeaderReady() bool                  { return true }
func (c *benchCluster) FSM() *fsm.FSM                      { return c.f }

// benchTopicConfigs returns topics configs "t<j>" with 8 queues.
func benchTopicConfigs(topics int) []state.TopicConfig {
	out := make([]state.TopicConfig, topics)
	for j := range out {
		out[j] = state.TopicConfig{TopicName: fmt.Sprintf("t%d", j), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}
	}
	return out
}

// benchServer returns a handler-only server whose FSM holds brokers
// brokers each carrying topics topics.
func benchServer(b *testing.B, brokers, topics int) *Server {
	b.Helper()
	c := &benchCluster{f: fsm.New(hclog.NewNullLogger())}
	configs := benchTopicConfigs(topics)
	for i := range brokers {
		_, err := c.Register(context.Background(), &state.RegisterBroker{
			ClusterName: "bench", BrokerName: fmt.Sprintf("broker-%d", i), BrokerAddr: fmt.Sprintf("10.0.0.%d:10911", i),
			HaServerAddr: "10.0.0.1:10912", DataVersion: state.DataVersion{Timestamp: 1, Counter: 1},
			TopicConfigs: configs, HasFilterServerList: true,
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return New(DefaultConfig(), c)
}

// BenchmarkServer_RouteQueryCached is GET_ROUTEINFO_BY_TOPIC through the
// dispatcher when the encoded body is cached: what a member does per route
// query in steady state, without the connection.
func BenchmarkServer_RouteQueryCached(b *testing.B) {
	for _, brokers := range []int{2, 16} {
		b.Run(fmt.Sprintf("brokers=%d", brokers), func(b *testing.B) {
			s := benchServer(b, brokers, 100)
			req := &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: 479,
				ExtFields: map[string]string{"topic": "t42"}}
			ctx := context.Background()
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if resp := s.ServeRemoting(ctx, nil, req); resp.Code != remoting.Success {
						b.Errorf("route answered %d %s", resp.Code, resp.Remark)
						return
					}
				}
			})
		})
	}
}

// BenchmarkDecodeRegistration is the header and body decoding of a
// REGISTER_BROKER request, which every heartbeat pays before the dedup
// check.
func BenchmarkDecodeRegistration(b *testing.B) {
	s := benchServer(b, 0, 0)
	for _, topics := range []int{10, 100, 1000, 10000} {
		for _, compressed := range []bool{false, true} {
			b.Run(fmt.Sprintf("topics=%d/compressed=%v", topics, compressed), func(b *testing.B) {
				rb := &body.RegisterBody{DataVersion: state.DataVersion{Timestamp: 1, Counter: 1},
					TopicConfigs: benchTopicConfigs(topics), HasFilterServerList: true}
				raw, err := body.EncodeRegisterBody(rb, compressed, 479)
				if err != nil {
					b.Fatal(err)
				}
				req := &remoting.Command{Code: remoting.RegisterBroker, Language: "JAVA", Version: 479, Body: raw,
					ExtFields: map[string]string{"brokerName": "broker-0", "brokerAddr": "10.0.0.1:10911", "clusterName": "bench",
						"haServerAddr": "10.0.0.1:10912", "brokerId": "0", "compressed": strconv.FormatBool(compressed),
						"bodyCrc32": strconv.Itoa(int(crc32.ChecksumIEEE(raw) & 0x7FFFFFFF))}}
				b.SetBytes(int64(len(raw)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.decodeRegistration(req, nil); err != nil {
						b.Fatalf("decode: %v", err)
					}
				}
			})
		}
	}
}

// BenchmarkServer_RouteInline is a cached route query answered on the
// connection's read goroutine (ServeInline), one caller cycling through
// topics as a client with many topics does.
func BenchmarkServer_RouteInline(b *testing.B) {
	s := benchServer(b, 2, 100)
	reqs := make([]*remoting.Command, 100)
	for i := range reqs {
		reqs[i] = &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: 479,
			ExtFields: map[string]string{"topic": fmt.Sprintf("t%d", i)}}
		if resp := s.ServeRemoting(context.Background(), nil, reqs[i]); resp.Code != remoting.Success {
			b.Fatalf("route of t%d answered %d %s", i, resp.Code, resp.Remark)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if resp, ok := s.ServeInline(nil, reqs[i%len(reqs)]); !ok || resp.Code != remoting.Success {
			b.Fatalf("inline route query: ok %v, %+v", ok, resp)
		}
	}
}
