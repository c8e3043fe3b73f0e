package namesrv

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// ctlBroker is a controller-mode broker: its own connection to the
// member (closing it is the broker dying) and a listener that records the
// NOTIFY_BROKER_ROLE_CHANGED it receives.
type ctlBroker struct {
	id      int64
	addr    string
	client  *remoting.Client
	srv     *remoting.Server
	mu      sync.Mutex
	notices []map[string]string
}

func newCtlBroker(t *testing.T) *ctlBroker {
	t.Helper()
	b := &ctlBroker{client: remoting.NewClient(remoting.ClientConfig{})}
	ln := listen(t)
	b.addr = ln.Addr().String()
	b.srv = remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			if req.Code == remoting.NotifyBrokerRoleChanged {
				b.mu.Lock()
				b.notices = append(b.notices, req.ExtFields)
				b.mu.Unlock()
			}
			return nil
		}), nil)
	go b.srv.Serve(ln)
	t.Cleanup(func() { b.client.Close(); b.srv.Close() })
	return b
}

// noticeFor returns the notice of a master epoch, or nil. Notices of
// successive elections may arrive in any order (a broker ignores one whose
// epoch is not newer than its own).
func (b *ctlBroker) noticeFor(epoch string) map[string]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, n := range b.notices {
		if n["masterEpoch"] == epoch {
			return n
		}
	}
	return nil
}

func (b *ctlBroker) call(t *testing.T, ts *testServer, code int32, ext map[string]string, payload []byte) *remoting.Command {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := b.client.Invoke(ctx, ts.addr, &remoting.Command{Code: code, Language: "JAVA", ExtFields: ext, Body: payload})
	if err != nil {
		t.Fatalf("request %d: %v", code, err)
	}
	return resp
}

func (b *ctlBroker) heartbeat(t *testing.T, ts *testServer, epoch, offset int64) {
	t.Helper()
	resp := b.call(t, ts, remoting.BrokerHeartbeat, map[string]string{"clusterName": "c", "brokerName": "broker-a",
		"brokerAddr": b.addr, "brokerId": strconv.FormatInt(b.id, 10), "epoch": strconv.FormatInt(epoch, 10),
		"maxOffset": strconv.FormatInt(offset, 10), "heartbeatTimeoutMills": "10000"}, nil)
	if resp.Code != remoting.Success {
		t.Fatalf("heartbeat: %d %s", resp.Code, resp.Remark)
	}
}

// register runs a 5.x broker's start-up: next id, apply it, register.
func (b *ctlBroker) register(t *testing.T, ts *testServer) *remoting.Command {
	t.Helper()
	group := map[string]string{"clusterName": "c", "brokerName": "broker-a"}
	resp := b.call(t, ts, remoting.ControllerGetNextBrokerID, group, nil)
	if resp.Code != remoting.Success {
		t.Fatalf("next id: %d %s", resp.Code, resp.Remark)
	}
	b.id, _ = strconv.ParseInt(resp.ExtFields["nextBrokerId"], 10, 64)
	resp = b.call(t, ts, remoting.ControllerApplyBrokerID, map[string]string{"clusterName": "c", "brokerName": "broker-a",
		"appliedBrokerId": strconv.FormatInt(b.id, 10), "registerCheckCode": b.addr + ";1"}, nil)
	if resp.Code != remoting.Success {
		t.Fatalf("apply id %d: %d %s", b.id, resp.Code, resp.Remark)
	}
	return b.call(t, ts, remoting.ControllerRegisterBroker, map[string]string{"clusterName": "c", "brokerName": "broker-a",
		"brokerId": strconv.FormatInt(b.id, 10), "brokerAddress": b.addr}, nil)
}

func startControllerServer(t *testing.T) *testServer {
	return startTestServer(t, func(c *Config) { c.Controller.Enabled = true })
}

func TestController_BrokerGroupLifecycleAndFailover(t *testing.T) {
	ts := startControllerServer(t)
	b1, b2 := newCtlBroker(t), newCtlBroker(t)
	for _, b := range []*ctlBroker{b1, b2} {
		if resp := b.register(t, ts); resp.Code != remoting.Success || resp.ExtFields["masterBrokerId"] != "" {
			t.Fatalf("register broker %d: %d %s %v", b.id, resp.Code, resp.Remark, resp.ExtFields)
		}
		b.heartbeat(t, ts, 0, 0)
	}
	if b1.id != 1 || b2.id != 2 {
		t.Fatalf("ids %d, %d; want 1, 2", b1.id, b2.id)
	}
	elect := func(b *ctlBroker) *remoting.Command {
		return b.call(t, ts, remoting.ControllerElectMaster, map[string]string{"clusterName": "c", "brokerName": "broker-a",
			"brokerId": strconv.FormatInt(b.id, 10), "designateElect": "false"}, nil)
	}
	if resp := elect(b1); resp.Code != remoting.Success || resp.ExtFields["masterBrokerId"] != "1" || resp.ExtFields["masterEpoch"] != "1" ||
		!strings.Contains(string(resp.Body), `"brokerAddrs":{1:"`+b1.addr+`",2:"`+b2.addr+`"}`) {
		t.Fatalf("first election: %d %s %v %s", resp.Code, resp.Remark, resp.ExtFields, resp.Body)
	}
	if resp := elect(b2); resp.Code != remoting.ControllerMasterStillExist || resp.ExtFields["masterBrokerId"] != "1" {
		t.Fatalf("second election: %d %s %v", resp.Code, resp.Remark, resp.ExtFields)
	}
	alter := b1.call(t, ts, remoting.ControllerAlterSyncStateSet, map[string]string{"brokerName": "broker-a",
		"masterBrokerId": "1", "masterEpoch": "1"}, body.EncodeSyncStateSet([]int64{1, 2}, 1))
	if alter.Code != remoting.Success || alter.ExtFields["newSyncStateSetEpoch"] != "2" {
		t.Fatalf("alter: %d %s %v", alter.Code, alter.Remark, alter.ExtFields)
	}
	stale := b1.call(t, ts, remoting.ControllerAlterSyncStateSet, map[string]string{"brokerName": "broker-a",
		"masterBrokerId": "1", "masterEpoch": "1"}, body.EncodeSyncStateSet([]int64{1}, 1))
	if stale.Code != remoting.ControllerFencedSyncStateSetEpoch {
		t.Fatalf("stale alter: %d %s", stale.Code, stale.Remark)
	}
	data := ts.call(t, req(remoting.ControllerGetSyncStateData, 0, nil, []byte(`["broker-a","nope"]`)))
	want := `{"replicasInfoTable":{"broker-a":{"inSyncReplicas":[{"alive":true,"brokerAddress":"` + b1.addr +
		`","brokerId":1,"brokerName":"broker-a"},{"alive":true,"brokerAddress":"` + b2.addr +
		`","brokerId":2,"brokerName":"broker-a"}],"masterAddress":"` + b1.addr +
		`","masterBrokerId":1,"masterEpoch":1,"notInSyncReplicas":[],"syncStateSetEpoch":2}}}`
	if data.Code != remoting.Success || string(data.Body) != want {
		t.Fatalf("sync state data: %d %s\n got %s\nwant %s", data.Code, data.Remark, data.Body, want)
	}

	// The master dies: its connection closes and the member elects the
	// other replica of the SyncStateSet, and tells it.
	b2.heartbeat(t, ts, 1, 100)
	b1.client.Close()
	poll.For(t, 30*time.Second, "broker 2 elected", func() bool {
		g, _ := ts.node.FSM().ReplicaGroup("broker-a")
		return g.HasMaster && g.MasterID == 2
	})
	g, _ := ts.node.FSM().ReplicaGroup("broker-a")
	if g.MasterEpoch != 2 || g.SyncStateSetEpoch != 3 || len(g.SyncStateSet) != 1 {
		t.Fatalf("after failover: %+v", g)
	}
	poll.For(t, 30*time.Second, "role change notice", func() bool {
		n := b2.noticeFor("2")
		return n != nil && n["masterBrokerId"] == "2" && n["masterAddress"] == b2.addr
	})
	if b1.noticeFor("2") != nil {
		t.Error("the dead master was told of the election that replaced it")
	}

	// The old master comes back: it learns the new master on registering.
	b1.client = remoting.NewClient(remoting.ClientConfig{})
	b1.heartbeat(t, ts, 1, 100)
	resp := b1.call(t, ts, remoting.ControllerRegisterBroker, map[string]string{"clusterName": "c", "brokerName": "broker-a",
		"brokerId": "1", "brokerAddress": b1.addr}, nil)
	if resp.Code != remoting.Success || resp.ExtFields["masterBrokerId"] != "2" || resp.ExtFields["masterEpoch"] != "2" {
		t.Fatalf("old master re-registers: %d %s %v", resp.Code, resp.Remark, resp.ExtFields)
	}
	info := ts.call(t, req(remoting.ControllerGetReplicaInfo, 0, map[string]string{"brokerName": "broker-a"}, nil))
	if info.Code != remoting.Success || info.ExtFields["masterAddress"] != b2.addr || string(info.Body) != `{"syncStateSet":[2],"syncStateSetEpoch":3}` {
		t.Fatalf("replica info: %d %v %s", info.Code, info.ExtFields, info.Body)
	}
}

func TestController_RefusalsChangeNothing(t *testing.T) {
	ts := startControllerServer(t)
	b := newCtlBroker(t)
	b.register(t, ts)
	before := ts.node.FSM().DigestWithoutAudit()
	cases := []struct {
		name string
		code int32
		ext  map[string]string
		body []byte
		want int32
	}{
		{"apply without check code", remoting.ControllerApplyBrokerID, map[string]string{"clusterName": "c", "brokerName": "broker-a", "appliedBrokerId": "2"}, nil, remoting.SystemError},
		{"apply a taken id", remoting.ControllerApplyBrokerID, map[string]string{"clusterName": "c", "brokerName": "broker-a", "appliedBrokerId": "1", "registerCheckCode": "other;2"}, nil, remoting.ControllerBrokerIDInvalid},
		{"first id of a new group", remoting.ControllerApplyBrokerID, map[string]string{"clusterName": "c", "brokerName": "broker-b", "appliedBrokerId": "3", "registerCheckCode": "x;1"}, nil, remoting.ControllerBrokerIDInvalid},
		{"register unknown id", remoting.ControllerRegisterBroker, map[string]string{"clusterName": "c", "brokerName": "broker-a", "brokerId": "9", "brokerAddress": "x:1"}, nil, remoting.ControllerBrokerNeedToBeRegistered},
		{"elect unknown group", remoting.ControllerElectMaster, map[string]string{"clusterName": "c", "brokerName": "broker-z", "brokerId": "1"}, nil, remoting.ControllerBrokerNeedToBeRegistered},
		{"alter without master", remoting.ControllerAlterSyncStateSet, map[string]string{"brokerName": "broker-a", "masterBrokerId": "1", "masterEpoch": "0"}, []byte(`{"syncStateSet":[1],"syncStateSetEpoch":0}`), remoting.ControllerInvalidMaster},
		{"alter with a bad body", remoting.ControllerAlterSyncStateSet, map[string]string{"brokerName": "broker-a", "masterBrokerId": "1", "masterEpoch": "0"}, []byte(`{"syncStateSet":[`), remoting.SystemError},
		{"replica info of unknown group", remoting.ControllerGetReplicaInfo, map[string]string{"brokerName": "broker-z"}, nil, remoting.ControllerBrokerMetadataNotExist},
		{"clean unknown group", remoting.CleanBrokerData, map[string]string{"clusterName": "c", "brokerName": "broker-z"}, nil, remoting.ControllerInvalidCleanBrokerMetadata},
		{"clean with bad ids", remoting.CleanBrokerData, map[string]string{"clusterName": "c", "brokerName": "broker-a", "brokerControllerIdsToClean": "1;x"}, nil, remoting.ControllerInvalidCleanBrokerMetadata},
		{"clean a living broker", remoting.CleanBrokerData, map[string]string{"clusterName": "c", "brokerName": "broker-a", "brokerControllerIdsToClean": "1"}, nil, remoting.ControllerInvalidCleanBrokerMetadata},
		{"sync state data garbage", remoting.ControllerGetSyncStateData, nil, []byte(`{`), remoting.SystemError},
	}
	b.heartbeat(t, ts, 0, 0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := ts.call(t, req(tc.code, 0, tc.ext, tc.body))
			if resp.Code != tc.want {
				t.Fatalf("code %d (%s), want %d", resp.Code, resp.Remark, tc.want)
			}
		})
	}
	if ts.node.FSM().DigestWithoutAudit() != before {
		t.Fatal("a refused request changed the state")
	}
}

func TestController_MetadataConfigAndSwitch(t *testing.T) {
	ts := startControllerServer(t)
	md := ts.call(t, req(remoting.ControllerGetMetadataInfo, 0, nil, nil))
	if md.Code != remoting.Success || md.ExtFields["controllerLeaderAddress"] != "127.0.0.1:9876" || md.ExtFields["isLeader"] != "true" {
		t.Fatalf("metadata: %d %v", md.Code, md.ExtFields)
	}
	up := ts.call(t, req(remoting.UpdateControllerConfig, 0, nil, []byte("enableElectUncleanMaster=true\n")))
	if up.Code != remoting.Success || !ts.srv.ctrl.ctrl.Options().ElectUncleanMaster {
		t.Fatalf("update config: %d %s, options %+v", up.Code, up.Remark, ts.srv.ctrl.ctrl.Options())
	}
	if bl := ts.call(t, req(remoting.UpdateControllerConfig, 0, nil, []byte("configStorePath=/tmp/x\n"))); bl.Code != remoting.NoPermission {
		t.Fatalf("black-listed key: %d", bl.Code)
	}
	get := ts.call(t, req(remoting.GetControllerConfig, 0, nil, nil))
	if !strings.Contains(string(get.Body), "enableElectUncleanMaster=true\n") {
		t.Fatalf("get config: %s", get.Body)
	}
	off := startTestServer(t, nil)
	if resp := off.call(t, req(remoting.ControllerGetMetadataInfo, 0, nil, nil)); resp.Code != remoting.RequestCodeNotSupported {
		t.Fatalf("controller off: code %d", resp.Code)
	}
}

func TestController_HeartbeatsOfUnknownBrokersAreNotTracked(t *testing.T) {
	ts := startControllerServer(t)
	b := newCtlBroker(t)
	b.id = 7 // never assigned
	b.heartbeat(t, ts, 0, 0)
	if ts.node.Replicas().ReplicaAlive(cluster.ReplicaKey{Cluster: "c", BrokerName: "broker-a", ID: 7}) {
		t.Fatal("a heartbeat naming an id the controller never assigned is tracked")
	}
	b.register(t, ts) // assigns id 1
	b.heartbeat(t, ts, 0, 0)
	if !ts.node.Replicas().ReplicaAlive(cluster.ReplicaKey{Cluster: "c", BrokerName: "broker-a", ID: 1}) {
		t.Fatal("a registered replica's heartbeat is not tracked")
	}
}
