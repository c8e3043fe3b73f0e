package namesrv

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// fakeBroker is a remoting server that records the requests it receives.
type fakeBroker struct {
	mu   sync.Mutex
	got  []*remoting.Command
	addr string
}

func startFakeBroker(t *testing.T) *fakeBroker {
	t.Helper()
	fb := &fakeBroker{}
	rs := remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			fb.mu.Lock()
			fb.got = append(fb.got, req)
			fb.mu.Unlock()
			return nil
		}), nil)
	ln := listen(t)
	fb.addr = ln.Addr().String()
	go rs.Serve(ln)
	t.Cleanup(func() { rs.Close() })
	return fb
}

func (fb *fakeBroker) received() []*remoting.Command {
	fb.mu.Lock()
	defer fb.mu.Unlock()
	return append([]*remoting.Command(nil), fb.got...)
}

func (ts *testServer) register(t *testing.T, name string, id int64, addr string, acting bool, counter int64, topics ...string) {
	t.Helper()
	rb := body.RegisterBody{DataVersion: state.DataVersion{Timestamp: 1700000000000, Counter: counter}, HasFilterServerList: true}
	for _, tp := range topics {
		rb.TopicConfigs = append(rb.TopicConfigs, state.TopicConfig{TopicName: tp, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := ts.client.RegisterBroker(ctx, ts.addr, &nsclient.Registration{ClusterName: "C", BrokerName: name,
		BrokerAddr: addr, HaServerAddr: addr + "-ha", BrokerID: id, EnableActingMaster: &acting, Body: rb}); err != nil {
		t.Fatalf("register %s/%d: %v", name, id, err)
	}
}

// TestMinBrokerIDNotice_SentOnceByLeader registers a slave and then a
// master of an acting-master group: the slave (a fake broker) receives one
// NOTIFY_MIN_BROKER_ID_CHANGE naming the master, and no second one.
func TestMinBrokerIDNotice_SentOnceByLeader(t *testing.T) {
	ts := startTestServer(t, func(c *Config) {
		c.Settings = NewSettings(map[string]string{PropNotifyMinBrokerIDChanged: "true"}, nil)
	})
	slave, master := startFakeBroker(t), startFakeBroker(t)
	ts.register(t, "b", 1, slave.addr, true, 1, "T")
	ts.register(t, "b", 0, master.addr, true, 1, "T")
	poll.For(t, 10*time.Second, "the notice", func() bool { return len(slave.received()) > 0 })
	poll.For(t, 10*time.Second, "the notice to be cleared", func() bool { return len(ts.node.FSM().PendingMinBrokerIDNotices()) == 0 })
	got := slave.received()[0]
	want := map[string]string{"minBrokerId": "0", "minBrokerAddr": master.addr, "haBrokerAddr": master.addr + "-ha"}
	if got.Code != NotifyMinBrokerIDChange || got.Flag&remoting.FlagOneway == 0 || !maps.Equal(got.ExtFields, want) {
		t.Fatalf("notice = code %d flag %d %v, want 905 oneway %v", got.Code, got.Flag, got.ExtFields, want)
	}
	// Unchanged registrations and a further poll round send nothing more.
	ts.register(t, "b", 0, master.addr, true, 1, "T")
	applied := ts.node.FSM().AppliedIndex()
	rounds := ts.srv.notifier.rounds.Load()
	poll.For(t, 10*time.Second, "two more notifier rounds", func() bool { return ts.srv.notifier.rounds.Load() >= rounds+2 })
	if n := len(slave.received()); n != 1 {
		t.Fatalf("slave received %d notices, want 1", n)
	}
	if len(master.received()) != 0 {
		t.Fatal("the new smallest id was told about itself")
	}
	if ts.node.FSM().AppliedIndex() != applied {
		t.Fatal("an unchanged registration wrote to the log")
	}
}

// TestMinBrokerIDNotice_OffClearsWithoutSending: with the setting off the
// leader still clears notices, and sends none.
func TestMinBrokerIDNotice_OffClearsWithoutSending(t *testing.T) {
	ts := startTestServer(t, nil)
	slave, master := startFakeBroker(t), startFakeBroker(t)
	ts.register(t, "b", 1, slave.addr, true, 1, "T")
	ts.register(t, "b", 0, master.addr, true, 1, "T")
	poll.For(t, 10*time.Second, "the notice to be cleared", func() bool { return len(ts.node.FSM().PendingMinBrokerIDNotices()) == 0 })
	if n := len(slave.received()); n != 0 {
		t.Fatalf("slave received %d notices with the setting off", n)
	}
}

func routeOf(t *testing.T, ts *testServer, ext map[string]string) *state.TopicRouteData {
	t.Helper()
	resp := ts.call(t, req(remoting.GetRouteInfoByTopic, 513, ext, nil))
	if resp.Code != remoting.Success {
		t.Fatalf("route: %d %s", resp.Code, resp.Remark)
	}
	rd, err := body.DecodeTopicRouteData(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

// TestRoute_ActingMasterSetting: the slave shows as master only with
// supportActingMaster on, and the setting takes effect without a restart.
func TestRoute_ActingMasterSetting(t *testing.T) {
	ts := startTestServer(t, func(c *Config) {
		c.Settings = NewSettings(map[string]string{PropSupportActingMaster: "false"}, nil)
	})
	master, slave := "127.0.0.1:1", "127.0.0.1:2"
	ts.register(t, "b", 0, master, true, 1, "T")
	ts.register(t, "b", 1, slave, true, 1, "T")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ts.client.UnregisterBroker(ctx, ts.addr, "C", "b", master, 0); err != nil {
		t.Fatal(err)
	}
	if got := routeOf(t, ts, map[string]string{"topic": "T"}).BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{1: slave}) {
		t.Fatalf("route without supportActingMaster = %v", got)
	}
	mustCode(t, ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte(PropSupportActingMaster+"=true\n"))), remoting.Success)
	if got := routeOf(t, ts, map[string]string{"topic": "T"}).BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{0: slave}) {
		t.Fatalf("route with supportActingMaster = %v, want {0: slave}", got)
	}
}

// TestRoute_ZoneMode: a zone-mode client sees its zone's groups, others all.
func TestRoute_ZoneMode(t *testing.T) {
	ts := startTestServer(t, nil)
	for i, zone := range []string{"zoneA", "zoneB"} {
		rb := body.RegisterBody{DataVersion: state.DataVersion{Counter: 1}, HasFilterServerList: true,
			TopicConfigs: []state.TopicConfig{{TopicName: "T", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}}}
		b, err := body.EncodeRegisterBody(&rb, false, 513)
		if err != nil {
			t.Fatal(err)
		}
		name := "broker-" + zone
		resp := ts.call(t, req(remoting.RegisterBroker, 513, map[string]string{"brokerName": name,
			"brokerAddr": "127.0.0.1:" + string(rune('1'+i)), "clusterName": "C", "haServerAddr": "h", "brokerId": "0",
			"__ZONE_NAME": zone, "enableActingMaster": "false"}, b))
		if resp.Code != remoting.Success {
			t.Fatalf("register: %d %s", resp.Code, resp.Remark)
		}
	}
	names := func(rd *state.TopicRouteData) (out []string) {
		for _, bd := range rd.BrokerDatas {
			out = append(out, bd.BrokerName+"@"+bd.ZoneName)
		}
		return out
	}
	for _, tc := range []struct {
		ext  map[string]string
		want int
		name string
	}{
		{map[string]string{"topic": "T"}, 2, ""},
		{map[string]string{"topic": "T", "__ZONE_NAME": "zoneA"}, 2, ""}, // no __ZONE_MODE
		{map[string]string{"topic": "T", "__ZONE_MODE": "TRUE", "__ZONE_NAME": "zonea"}, 1, "broker-zoneA@zoneA"},
		{map[string]string{"topic": "T", "__ZONE_MODE": "true", "__ZONE_NAME": "zoneB"}, 1, "broker-zoneB@zoneB"},
		{map[string]string{"topic": "T", "__ZONE_MODE": "true", "__ZONE_NAME": "  "}, 2, ""},
	} {
		rd := routeOf(t, ts, tc.ext)
		got := names(rd)
		if len(got) != tc.want || (tc.name != "" && got[0] != tc.name) || len(rd.QueueDatas) != tc.want {
			t.Errorf("%v: groups %v, %d queue datas; want %d %s", tc.ext, got, len(rd.QueueDatas), tc.want, tc.name)
		}
	}
}
