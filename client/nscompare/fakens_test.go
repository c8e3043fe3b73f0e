package nscompare

import (
	"context"
	"maps"
	"net"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// fakeNS is a name server over the real remoting protocol whose state is
// set by the test: the answers are encoded as RaftNS encodes them.
type fakeNS struct {
	addr string

	mu      sync.Mutex
	brokers map[string]state.BrokerData
	routes  map[string]*state.TopicRouteData
	kv      map[string]map[string]string
	config  string
	dv      map[string]state.DataVersion // broker address -> version
	// garbage lists request codes answered with an unreadable body.
	garbage map[int32]bool
	// refuse lists request codes answered with SYSTEM_ERROR "refused".
	refuse map[int32]bool
	// hang makes route queries never answered.
	hang bool
	// asked counts the requests received per code.
	asked map[int32]int

	inFlight, maxInFlight atomic.Int32
}

func startFakeNS(t *testing.T) *fakeNS {
	t.Helper()
	f := &fakeNS{brokers: map[string]state.BrokerData{}, routes: map[string]*state.TopicRouteData{},
		kv: map[string]map[string]string{}, dv: map[string]state.DataVersion{}, garbage: map[int32]bool{}, refuse: map[int32]bool{},
		asked: map[int32]int{}, config: "orderMessageEnable=false\nlistenPort=9876\n"}
	cfg := remoting.DefaultServerConfig()
	rs := remoting.NewServer(cfg, remoting.HandlerFunc(f.serve), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.addr = ln.Addr().String()
	go rs.Serve(ln)
	t.Cleanup(func() { rs.Close() })
	return f
}

func (f *fakeNS) serve(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for m := f.maxInFlight.Load(); n > m && !f.maxInFlight.CompareAndSwap(m, n); m = f.maxInFlight.Load() {
	}
	f.mu.Lock()
	f.asked[req.Code]++
	hang := f.hang && req.Code == remoting.GetRouteInfoByTopic
	f.mu.Unlock()
	if hang {
		<-ctx.Done()
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse[req.Code] {
		return remoting.NewResponse(req, remoting.SystemError, "refused")
	}
	if f.garbage[req.Code] {
		resp := remoting.NewResponse(req, remoting.Success, "")
		resp.Body = []byte("{not json")
		return resp
	}
	return f.answer(req)
}

func ok(req *remoting.Command, b []byte) *remoting.Command {
	resp := remoting.NewResponse(req, remoting.Success, "")
	resp.Body = b
	return resp
}

// answer answers req from the state; f.mu is held.
func (f *fakeNS) answer(req *remoting.Command) *remoting.Command {
	ext := req.ExtFields
	switch req.Code {
	case remoting.GetBrokerClusterInfo:
		ci := &state.ClusterInfo{BrokerAddrTable: maps.Clone(f.brokers), ClusterAddrTable: map[string][]string{}}
		for name, b := range f.brokers {
			ci.ClusterAddrTable[b.Cluster] = append(ci.ClusterAddrTable[b.Cluster], name)
		}
		return ok(req, body.EncodeClusterInfo(ci))
	case remoting.GetAllTopicListFromNameSrv:
		topics := make([]string, 0, len(f.routes))
		for t := range f.routes {
			topics = append(topics, t)
		}
		sort.Strings(topics)
		return ok(req, body.EncodeTopicList(&state.TopicList{Topics: topics}))
	case remoting.GetRouteInfoByTopic:
		if r := f.routes[ext["topic"]]; r != nil {
			return ok(req, body.EncodeTopicRouteData(r))
		}
		return remoting.NewResponse(req, remoting.TopicNotExist, "No topic route info in name server for the topic: "+ext["topic"])
	case remoting.GetKVListByNamespace:
		if table, found := f.kv[ext["namespace"]]; found {
			return ok(req, body.EncodeKVTable(table))
		}
		return remoting.NewResponse(req, remoting.QueryNotFound, "No config item, Namespace: "+ext["namespace"])
	case remoting.PutKVConfig:
		f.putKV(ext["namespace"], ext["key"], ext["value"])
		return ok(req, nil)
	case remoting.GetNamesrvConfig:
		return ok(req, []byte(f.config))
	case remoting.WipeWritePermOfBroker:
		return f.wipe(req)
	case remoting.QueryDataVersion:
		resp := ok(req, nil)
		resp.ExtFields = map[string]string{"changed": "true"}
		if dv, found := f.dv[ext["brokerAddr"]]; found {
			resp.Body = body.EncodeDataVersion(dv)
		}
		return resp
	}
	return remoting.NewResponse(req, remoting.RequestCodeNotSupported, "not supported")
}

func (f *fakeNS) putKV(ns, key, value string) {
	if f.kv[ns] == nil {
		f.kv[ns] = map[string]string{}
	}
	f.kv[ns][key] = value
}

func (f *fakeNS) wipe(req *remoting.Command) *remoting.Command {
	n := 0
	for _, r := range f.routes {
		for i, q := range r.QueueDatas {
			if q.BrokerName == req.ExtFields["brokerName"] {
				r.QueueDatas[i].Perm &^= permWrite
				n++
			}
		}
	}
	resp := ok(req, nil)
	resp.ExtFields = map[string]string{"wipeTopicCount": strconv.Itoa(n)}
	return resp
}

// addBroker registers broker id at addr in cluster C.
func (f *fakeNS) addBroker(name string, id int64, addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, found := f.brokers[name]
	if !found {
		b = state.BrokerData{Cluster: "C", BrokerName: name, BrokerAddrs: map[int64]string{}}
	}
	b.BrokerAddrs[id] = addr
	f.brokers[name] = b
}

// addTopic gives topic 4 read and 4 write queues with perm on each broker.
func (f *fakeNS) addTopic(topic string, perm int32, brokers ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := &state.TopicRouteData{FilterServerTable: map[string][]string{}}
	for _, b := range brokers {
		r.QueueDatas = append(r.QueueDatas, state.QueueData{BrokerName: b, ReadQueueNums: 4, WriteQueueNums: 4, Perm: perm})
		r.BrokerDatas = append(r.BrokerDatas, state.BrokerData{Cluster: "C", BrokerName: b, BrokerAddrs: map[int64]string{0: "10.0.0.1:10911"}})
	}
	f.routes[topic] = r
}

func (f *fakeNS) setKV(ns, key, value string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.putKV(ns, key, value)
}

// with runs change (or a look) with the state locked.
func (f *fakeNS) with(change func(f *fakeNS)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

func (f *fakeNS) count(code int32) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asked[code]
}

// newClient returns a client closed when the test ends.
func newClient(t *testing.T) *nsclient.Client {
	c := nsclient.New(remoting.ClientConfig{DialTimeout: 2 * time.Second})
	t.Cleanup(func() { c.Close() })
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// twin returns two fake name servers holding the same state: broker-a
// master and slave, two topics, one KV key.
func twin(t *testing.T) (a, b *fakeNS) {
	a, b = startFakeNS(t), startFakeNS(t)
	for _, f := range []*fakeNS{a, b} {
		f.addBroker("broker-a", 0, "10.0.0.1:10911")
		f.addBroker("broker-a", 1, "10.0.0.2:10911")
		f.addTopic("TopicA", 6, "broker-a")
		f.addTopic("TopicB", 6, "broker-a")
		f.setKV(DefaultNamespace, "TopicA", "broker-a:4")
	}
	return a, b
}
