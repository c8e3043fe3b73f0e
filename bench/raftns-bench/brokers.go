package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-msgpack/v2/codec"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
)

// benchCluster is the RocketMQ cluster name of every simulated broker.
const benchCluster = "BenchCluster"

// naming gives the brokers and topics of one run names and addresses that
// no other run against the same members uses.
type naming struct {
	tag  string // base-36 run token
	port int
	// next numbers the broker addresses handed out, so that brokers of
	// different groups never share an address (the liveness key).
	next *atomic.Int64
}

func newNaming() naming {
	n := rand.IntN(50000)
	return naming{tag: strconv.FormatInt(int64(n), 36), port: 10000 + n, next: new(atomic.Int64)}
}

// topics returns count topic names of group.
func (n naming) topics(group string, count int) []string {
	out := make([]string, count)
	for i := range out {
		out[i] = fmt.Sprintf("bench-%s-%s-%d", n.tag, group, i)
	}
	return out
}

// broker returns the registration of master i of group carrying configs,
// at an address no other broker of the run has. Its DataVersion counter
// starts at 1.
func (n naming) broker(group string, i int, configs []state.TopicConfig) *nsclient.Registration {
	a := n.next.Add(1)
	addr := fmt.Sprintf("10.%d.%d.%d:%d", a>>16&255, a>>8&255, a&255, n.port)
	return &nsclient.Registration{
		ClusterName: benchCluster, BrokerName: fmt.Sprintf("bench-%s-%s-b%d", n.tag, group, i),
		BrokerAddr: addr, HaServerAddr: addr, BrokerID: 0,
		Body: body.RegisterBody{
			DataVersion:         state.DataVersion{Timestamp: time.Now().UnixMilli(), Counter: 1},
			TopicConfigs:        configs,
			HasFilterServerList: true,
		},
	}
}

// randomTopics returns count distinct topic names of 24 random characters
// from the set RocketMQ allows, the least compressible names a broker
// could carry.
func randomTopics(count int) []string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
	out := make([]string, count)
	seen := make(map[string]bool, count)
	for i := 0; i < count; {
		b := make([]byte, 24)
		for j := range b {
			b[j] = alphabet[rand.IntN(len(alphabet))]
		}
		if name := string(b); !seen[name] {
			seen[name], out[i] = true, name
			i++
		}
	}
	return out
}

// topicConfigs returns read/write configs with queues queues for topics.
func topicConfigs(topics []string, queues int32) []state.TopicConfig {
	out := make([]state.TopicConfig, len(topics))
	for i, t := range topics {
		out[i] = state.TopicConfig{TopicName: t, ReadQueueNums: queues, WriteQueueNums: queues, Perm: 6}
	}
	return out
}

// bump gives the registration a new DataVersion, so that the next
// registration is a write, not a heartbeat.
func bump(r *nsclient.Registration) { r.Body.DataVersion.Counter++ }

// clientPool is a set of clients, each with its own connections.
type clientPool []*nsclient.Client

// newClients returns n clients.
func (e *env) newClients(n int) clientPool {
	p := make(clientPool, n)
	for i := range p {
		p[i] = e.newClient()
	}
	return p
}

// close closes every client's connections. A member sees the brokers
// registered on them as gone after its connection-close grace unless they
// heartbeat on another connection.
func (p clientPool) close() {
	for _, c := range p {
		c.Close()
	}
}

// registerAll registers every broker through addr, one request in flight
// per client of the pool, and returns the first error. The brokers stay
// attached to the pool's connections: keep them open while the brokers
// must stay registered.
func registerAll(ctx context.Context, pool clientPool, addr string, regs []*nsclient.Registration) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	next := make(chan *nsclient.Registration)
	for _, c := range pool {
		wg.Go(func() {
			for r := range next {
				if _, err := c.RegisterBroker(ctx, addr, r); err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("register %s: %w", r.BrokerName, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for _, r := range regs {
		next <- r
	}
	close(next)
	wg.Wait()
	return first
}

// entrySize returns the size of the largest Raft log entry the leader
// writes for r (the body decoded as the member decodes it, the command
// encoded and, if too large, split by fsm.SplitRegistration as the cluster
// package does, compression included) and the size the whole registration
// would have as one entry without compression (type byte plus msgpack).
func entrySize(r *nsclient.Registration, version int32) (entry, raw int, err error) {
	b, err := body.EncodeRegisterBody(&r.Body, r.Compressed, version)
	if err != nil {
		return 0, 0, err
	}
	rb, err := body.DecodeRegisterBody(b, r.Compressed, version)
	if err != nil {
		return 0, 0, err
	}
	cmd := &state.RegisterBroker{
		ClusterName: r.ClusterName, BrokerAddr: r.BrokerAddr, BrokerName: r.BrokerName, BrokerID: r.BrokerID,
		HaServerAddr: r.HaServerAddr, DataVersion: rb.DataVersion, TopicConfigs: rb.TopicConfigs,
		HasFilterServerList: rb.HasFilterServerList, FilterServerList: rb.FilterServerList,
		MappingInfos: rb.MappingInfos, StampMillis: time.Now().UnixMilli(),
	}
	if r.EnableActingMaster != nil {
		cmd.HasEnableActingMaster, cmd.EnableActingMaster = true, *r.EnableActingMaster
	}
	parts, err := fsm.SplitRegistration(cmd)
	if err != nil {
		return 0, 0, err
	}
	for _, p := range parts {
		entry = max(entry, len(p))
	}
	var payload []byte
	if err := codec.NewEncoderBytes(&payload, &codec.MsgpackHandle{BasicHandle: codec.BasicHandle{EncodeOptions: codec.EncodeOptions{Canonical: true}}}).Encode(cmd); err != nil {
		return 0, 0, err
	}
	return entry, 1 + len(payload), nil
}
