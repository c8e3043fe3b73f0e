package chaos

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// The workload's names.
const (
	kvNamespace   = "chaos"
	brokerCluster = "ChaosCluster"
	liveCluster   = "LiveCluster"
	// workloadBrokerTimeout keeps the workload's brokers, which register
	// once per operation and never heartbeat, from expiring during a run.
	workloadBrokerTimeout = int64(time.Hour / time.Millisecond)
	// opTimeout is a client's patience; the member's own write timeout
	// (5 s) ends first, so most writes get an answer.
	opTimeout = 7 * time.Second
)

func topicOf(broker string) string { return "T-" + broker }

// brokerAddr is a workload broker's fake address; it is never dialled.
func brokerAddr(i int) string { return fmt.Sprintf("127.0.0.1:%d", 30000+i) }

// client issues random operations against random members and records them.
type client struct {
	id      int
	rng     *rand.Rand
	nc      *nsclient.Client
	http    *http.Client
	cluster *procCluster
	hist    *history
	keys    int
	brokers int
	// consistent is the share of reads sent as leader-checked reads.
	consistent float64
	version    *atomic.Int64
	n          int
}

func newClient(id int, seed uint64, c *procCluster, h *history, keys, brokers int, version *atomic.Int64) *client {
	cfg := remoting.DefaultClientConfig()
	cfg.DialTimeout, cfg.RequestTimeout = time.Second, opTimeout
	return &client{id: id, rng: rand.New(rand.NewPCG(seed, uint64(id)+1)), nc: nsclient.New(cfg),
		http: &http.Client{Timeout: opTimeout}, cluster: c, hist: h, keys: keys, brokers: brokers,
		consistent: 0.3, version: version}
}

func (c *client) close() { c.nc.Close() }

// run issues operations until stop closes.
func (c *client) run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		ms := c.cluster.current()
		m := ms[c.rng.IntN(len(ms))]
		c.once(c.pick(m.ID))
	}
}

// pick chooses the next operation.
func (c *client) pick(member string) input {
	kv := c.rng.IntN(2) == 0
	r := c.rng.Float64()
	in := input{Member: member}
	if kv {
		in.Key = fmt.Sprintf("k%d", c.rng.IntN(c.keys))
		switch {
		case r < 0.35:
			c.n++
			in.Kind, in.Value = opPut, fmt.Sprintf("c%d-%d", c.id, c.n)
		case r < 0.5:
			in.Kind = opDelete
		default:
			in.Kind, in.Consistent = opReadKV, c.rng.Float64() < c.consistent
		}
		return in
	}
	in.Key = fmt.Sprintf("cb%d", c.rng.IntN(c.brokers))
	switch {
	case r < 0.2:
		in.Kind = opRegister
	case r < 0.3:
		in.Kind = opUnregister
	case r < 0.4:
		in.Kind = opWipe
	case r < 0.5:
		in.Kind = opAdd
	default:
		in.Kind, in.Consistent = opReadRoute, c.rng.Float64() < c.consistent
	}
	return in
}

// once performs in and records it.
func (c *client) once(in input) {
	m := c.cluster.get(in.Member)
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	e := event{Client: c.id, In: in, Call: c.hist.now()}
	out, err := c.do(ctx, m, in)
	e.Return = c.hist.now()
	e.Out = out
	if err != nil {
		e.Out = output{Unknown: true}
		e.Failed = certainlyNotApplied(err)
		e.Err = err.Error()
	}
	c.hist.add(e)
}

// certainlyNotApplied reports errors after which the request cannot have
// changed anything: the member refused the connection, answered with a
// code other than SYSTEM_ERROR (a refusal), or said nothing was applied.
func certainlyNotApplied(err error) bool {
	var re *nsclient.ResponseError
	if errors.As(err, &re) {
		return re.Code != remoting.SystemError || strings.HasPrefix(re.Remark, namesrv.RemarkNotApplied)
	}
	var he *httpError
	if errors.As(err, &he) {
		return true // reads only
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

func (c *client) do(ctx context.Context, m *member, in input) (output, error) {
	var out output
	var err error
	switch in.Kind {
	case opPut:
		err = c.nc.PutKV(ctx, m.ClientAddr, kvNamespace, in.Key, in.Value)
	case opDelete:
		err = c.nc.DeleteKV(ctx, m.ClientAddr, kvNamespace, in.Key)
	case opRegister:
		err = c.register(ctx, m.ClientAddr, in.Key)
	case opUnregister:
		i := brokerIndex(in.Key)
		err = c.nc.UnregisterBroker(ctx, m.ClientAddr, brokerCluster, in.Key, brokerAddr(i), 0)
	case opWipe:
		out.Count, err = c.nc.WipeWritePerm(ctx, m.ClientAddr, in.Key)
	case opAdd:
		out.Count, err = c.nc.AddWritePerm(ctx, m.ClientAddr, in.Key)
	case opReadKV:
		if in.Consistent {
			return c.consistentKV(ctx, m, in.Key)
		}
		out.Value, err = c.nc.GetKV(ctx, m.ClientAddr, kvNamespace, in.Key)
		out.Found = err == nil
		if nsclient.IsCode(err, remoting.QueryNotFound) {
			err = nil
		}
	case opReadRoute:
		if in.Consistent {
			return c.consistentRoute(ctx, m, in.Key)
		}
		var rd *state.TopicRouteData
		rd, err = c.nc.GetRoute(ctx, m.ClientAddr, topicOf(in.Key))
		if nsclient.IsCode(err, remoting.TopicNotExist) {
			err = nil
		} else if err == nil {
			out.Found, out.Writable = routeWritable(rd)
		}
	}
	return out, err
}

func brokerIndex(name string) int {
	var i int
	fmt.Sscanf(name, "cb%d", &i)
	return i
}

// routeWritable reports whether the route has queue data and whether its
// permission includes writing.
func routeWritable(rd *state.TopicRouteData) (found, writable bool) {
	if rd == nil || len(rd.QueueDatas) == 0 {
		return false, false
	}
	return true, rd.QueueDatas[0].Perm&permWrite != 0
}

const (
	permWrite = 2
	permRW    = 6
)

func (c *client) register(ctx context.Context, addr, broker string) error {
	i := brokerIndex(broker)
	_, err := c.nc.RegisterBroker(ctx, addr, &nsclient.Registration{
		ClusterName: brokerCluster, BrokerName: broker, BrokerAddr: brokerAddr(i), BrokerID: 0, HaServerAddr: haAddr(brokerAddr(i)),
		HeartbeatTimeoutMillis: workloadBrokerTimeout,
		Body: body.RegisterBody{
			DataVersion:  state.DataVersion{Timestamp: time.Now().UnixMilli(), Counter: c.version.Add(1)},
			TopicConfigs: []state.TopicConfig{{TopicName: topicOf(broker), ReadQueueNums: 4, WriteQueueNums: 4, Perm: permRW}},
		},
	})
	return err
}

// httpError is an admin API answer other than 200 or 404: the read was
// refused (no leader, not confirmed in time) and observed nothing.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return fmt.Sprintf("admin API %d: %s", e.status, e.msg) }

// getJSON sends a consistent read to the admin API; found is false on 404.
func (c *client) getJSON(ctx context.Context, m *member, path string, v any) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+m.HTTPAddr+path+"?consistent=true", nil)
	if err != nil {
		return false, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return true, json.NewDecoder(resp.Body).Decode(v)
	case http.StatusNotFound:
		return false, nil
	}
	var msg struct{ Error string }
	json.NewDecoder(resp.Body).Decode(&msg)
	return false, &httpError{status: resp.StatusCode, msg: msg.Error}
}

func (c *client) consistentKV(ctx context.Context, m *member, key string) (output, error) {
	var v struct{ Value string }
	found, err := c.getJSON(ctx, m, "/v1/kv/"+url.PathEscape(kvNamespace)+"/"+url.PathEscape(key), &v)
	return output{Found: found, Value: v.Value}, err
}

func (c *client) consistentRoute(ctx context.Context, m *member, broker string) (output, error) {
	var rd state.TopicRouteData
	found, err := c.getJSON(ctx, m, "/v1/routes/"+url.PathEscape(topicOf(broker)), &rd)
	if err != nil || !found {
		return output{}, err
	}
	out := output{}
	out.Found, out.Writable = routeWritable(&rd)
	return out, nil
}

// liveBrokers register every second with every member, like real brokers
// (which do so every 30 s), with the members' default 8 s expiry: none of
// them may ever be expired.
type liveBrokers struct {
	n       int
	cluster *procCluster
	nc      *nsclient.Client
}

func liveName(i int) string { return fmt.Sprintf("live%d", i) }

func liveAddr(i int) string { return fmt.Sprintf("127.0.0.1:%d", 31000+i) }

// haAddr is a fake HA address next to a broker's fake address.
func haAddr(addr string) string { return addr + "1" }

func (lb *liveBrokers) run(stop <-chan struct{}) {
	dv := state.DataVersion{Timestamp: time.Now().UnixMilli(), Counter: 1}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		for i := range lb.n {
			for _, m := range lb.cluster.current() {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), time.Second)
					defer cancel()
					lb.nc.RegisterBroker(ctx, m.ClientAddr, &nsclient.Registration{
						ClusterName: liveCluster, BrokerName: liveName(i), BrokerAddr: liveAddr(i), HaServerAddr: haAddr(liveAddr(i)),
						Body: body.RegisterBody{DataVersion: dv,
							TopicConfigs: []state.TopicConfig{{TopicName: "T-" + liveName(i), ReadQueueNums: 4, WriteQueueNums: 4, Perm: permRW}}},
					})
				}()
			}
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}
