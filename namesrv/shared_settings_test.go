package namesrv

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// sharedCluster is three in-memory members, each serving the NameServer
// protocol with its own settings: member i's orderMessageEnable is
// orders[i].
type sharedCluster struct {
	ms      *clustertest.Members
	servers map[string]*testServer
}

func startSharedCluster(t *testing.T, clusterVersion string, orders ...bool) *sharedCluster {
	t.Helper()
	ms := clustertest.Start(t, len(orders), func(c *cluster.Config) { c.InitialClusterVersion = clusterVersion })
	sc := &sharedCluster{ms: ms, servers: map[string]*testServer{}}
	for i, node := range ms.Running() {
		cfg := DefaultConfig()
		cfg.Logger = clustertest.Logger(t)
		cfg.Controller.Enabled = true
		cfg.Settings = NewSettings(map[string]string{PropOrderMessageEnable: strconv.FormatBool(orders[i]),
			PropConfigBlackList: "configBlackList;configStorePath;kvConfigPath", "dataDir": "/data/" + node.ID()}, nil, "dataDir")
		srv := New(cfg, node)
		ln := listen(t)
		go srv.Serve(ln)
		ts := &testServer{node: node, srv: srv, addr: ln.Addr().String(), client: nsclient.New(remoting.ClientConfig{})}
		t.Cleanup(func() { ts.client.Close(); srv.Close() })
		sc.servers[node.ID()] = ts
	}
	want := buildinfo.Current()
	if clusterVersion != "" {
		want = buildinfo.MustParse(clusterVersion)
	}
	for _, node := range ms.Running() {
		poll.For(t, 10*time.Second, node.ID()+" ready at cluster version "+want.String(), func() bool {
			ready, _ := node.Ready()
			return ready && node.FSM().ClusterVersion() == want
		})
	}
	return sc
}

// server returns the server of node.
func (sc *sharedCluster) server(node *cluster.Node) *testServer { return sc.servers[node.ID()] }

// config returns what GET_NAMESRV_CONFIG (or GET_CONTROLLER_CONFIG) of ts
// answers, as a map.
func config(t *testing.T, ts *testServer, code int32) map[string]string {
	t.Helper()
	resp := ts.call(t, req(code, 479, nil, nil))
	mustCode(t, resp, remoting.Success)
	out := map[string]string{}
	for _, line := range strings.Split(string(resp.Body), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

// TestSharedSettings_UpdateThroughOneMemberIsEveryMembers: members start
// with different values of their own; the leader's become the cluster's,
// and an update sent to a follower (an unknown key too) is what every
// member answers and serves; a member-local key is refused as before.
func TestSharedSettings_UpdateThroughOneMemberIsEveryMembers(t *testing.T) {
	sc := startSharedCluster(t, "", true, false, false)
	leader := sc.ms.Leader()
	for _, ts := range sc.servers {
		waitSettingsSeeded(t, ts.srv)
	}
	// The member that led when the cluster version allowed it seeded
	// its own values; every member answers them.
	_, from := leader.FSM().SettingsFrom(state.SettingsNamesrv)
	seeder, ok := sc.servers[from]
	if !ok {
		t.Fatalf("the settings were seeded by %q: %+v", from, leader.FSM().AuditRecords(state.AuditQuery{}).Records)
	}
	seeded := seeder.srv.cfg.Settings.Local()[PropOrderMessageEnable]
	for id, ts := range sc.servers {
		if got := config(t, ts, remoting.GetNamesrvConfig); got[PropOrderMessageEnable] != seeded || got["dataDir"] != "/data/"+id {
			t.Fatalf("%s answers orderMessageEnable=%s dataDir=%s; want %s's %s and its own dir", id,
				got[PropOrderMessageEnable], got["dataDir"], from, seeded)
		}
	}

	follower := sc.server(sc.ms.Followers()[0])
	want := strconv.FormatBool(seeded != "true")
	mustCode(t, follower.call(t, req(remoting.UpdateNamesrvConfig, 479, nil,
		[]byte(PropOrderMessageEnable+"="+want+"\nsomeUnknownKey=kept\n"))), remoting.Success)
	mustCode(t, follower.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte("dataDir=/tmp/x\n"))), remoting.NoPermission)
	for id, ts := range sc.servers {
		poll.For(t, 10*time.Second, id+" answering the update", func() bool {
			got := config(t, ts, remoting.GetNamesrvConfig)
			return got[PropOrderMessageEnable] == want && got["someUnknownKey"] == "kept" && got["dataDir"] == "/data/"+id
		})
		if order, _ := ts.srv.cfg.Settings.routeFlags(); strconv.FormatBool(order) != want {
			t.Fatalf("%s routes with orderMessageEnable=%v, want %s", id, order, want)
		}
	}
	// The update's entry is audited, the refusal recorded after it.
	recs := leader.FSM().AuditRecords(state.AuditQuery{Kind: state.AuditConfigUpdate}).Records
	if len(recs) < 2 {
		t.Fatalf("config-update records = %+v", recs)
	}
	update, refusal := recs[len(recs)-2], recs[len(recs)-1]
	if update.Detail != "name server: orderMessageEnable="+want+" someUnknownKey=kept" || update.Via != follower.node.ID() ||
		update.Outcome != state.OutcomeApplied || !strings.HasPrefix(refusal.Outcome, "refused: dataDir") {
		t.Fatalf("audit records of the update and the refusal = %+v, %+v", update, refusal)
	}
}

// TestSharedSettings_BelowTheClusterVersionAnUpdateIsTheMembers: a
// cluster below release 0.4.0 keeps the per-member behaviour.
func TestSharedSettings_BelowTheClusterVersionAnUpdateIsTheMembers(t *testing.T) {
	sc := startSharedCluster(t, "0.3.0", false, false, false)
	follower := sc.server(sc.ms.Followers()[0])
	mustCode(t, follower.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte("orderMessageEnable=true\n"))), remoting.Success)
	for id, ts := range sc.servers {
		got := config(t, ts, remoting.GetNamesrvConfig)[PropOrderMessageEnable]
		if want := strconv.FormatBool(ts == follower); got != want {
			t.Fatalf("%s answers orderMessageEnable=%s, want %s", id, got, want)
		}
	}
	if _, held := sc.ms.Leader().FSM().Settings(state.SettingsNamesrv); held {
		t.Fatal("the cluster holds settings below its version")
	}
	if v := sc.ms.Leader().FSM().ClusterVersion(); v != buildinfo.MustParse("0.3.0") {
		t.Fatalf("cluster version %s", v)
	}
}

// TestSharedSettings_ControllerSettingThroughFollowerRulesLeadersElection:
// enableElectUncleanMaster sent to a follower decides the next election
// the leader runs.
func TestSharedSettings_ControllerSettingThroughFollowerRulesLeadersElection(t *testing.T) {
	sc := startSharedCluster(t, "", false, false, false)
	lts := sc.server(sc.ms.Leader())
	for _, ts := range sc.servers {
		waitSettingsSeeded(t, ts.srv)
	}
	b1, b2 := newCtlBroker(t), newCtlBroker(t)
	for _, b := range []*ctlBroker{b1, b2} {
		if resp := b.register(t, lts); resp.Code != remoting.Success {
			t.Fatalf("register broker %d: %d %s", b.id, resp.Code, resp.Remark)
		}
		b.heartbeat(t, lts, 0, 0)
	}
	elect := func(b *ctlBroker) *remoting.Command {
		return b.call(t, lts, remoting.ControllerElectMaster, map[string]string{"clusterName": "c", "brokerName": "broker-a",
			"brokerId": strconv.FormatInt(b.id, 10), "designateElect": "false"}, nil)
	}
	if resp := elect(b1); resp.Code != remoting.Success || resp.ExtFields["masterBrokerId"] != "1" {
		t.Fatalf("first election: %d %s %v", resp.Code, resp.Remark, resp.ExtFields)
	}
	// The master dies; the only other replica is outside the SyncStateSet,
	// so the leader's election finds no master.
	b2.heartbeat(t, lts, 1, 100)
	b1.client.Close()
	poll.For(t, 30*time.Second, "the group without a master", func() bool {
		g, _ := lts.node.FSM().ReplicaGroup("broker-a")
		return !g.HasMaster
	})
	if resp := elect(b2); resp.Code != remoting.ControllerElectMasterFailed {
		t.Fatalf("election of a replica outside the SyncStateSet: %d %s, want %d", resp.Code, resp.Remark, remoting.ControllerElectMasterFailed)
	}

	follower := sc.server(sc.ms.Followers()[0])
	up := follower.call(t, req(remoting.UpdateControllerConfig, 0, nil, []byte(PropEnableElectUncleanMaster+"=true\n")))
	mustCode(t, up, remoting.Success)
	if resp := elect(b2); resp.Code != remoting.Success || resp.ExtFields["masterBrokerId"] != "2" {
		t.Fatalf("election after the follower took enableElectUncleanMaster: %d %s %v", resp.Code, resp.Remark, resp.ExtFields)
	}
	for id, ts := range sc.servers {
		if got := config(t, ts, remoting.GetControllerConfig)[PropEnableElectUncleanMaster]; got != "true" {
			t.Fatalf("%s answers enableElectUncleanMaster=%s", id, got)
		}
	}
}

func TestSeedConflicts_NameEveryOtherMember(t *testing.T) {
	own := func(id string, kvs ...string) adminapi.MemberSettings {
		m := adminapi.MemberSettings{ID: id}
		for i := 0; i < len(kvs); i += 2 {
			m.Settings = append(m.Settings, adminapi.Setting{Scope: state.SettingsNamesrv, Key: kvs[i], Kind: adminapi.SettingClusterWide,
				Own: kvs[i+1], HasOwn: true})
		}
		return m
	}
	local := own("n3", "orderMessageEnable", "false")
	local.Settings[0].Kind = adminapi.SettingMemberLocal
	got := seedConflicts(state.SettingsNamesrv, map[string]string{"orderMessageEnable": "true", "enableTopicList": "true"}, "n1",
		[]adminapi.MemberSettings{own("n1", "orderMessageEnable", "true"), own("n2", "orderMessageEnable", "false", "enableTopicList", "true"),
			own("n4", "orderMessageEnable", "0", "extra", "x"), local})
	want := []seedConflict{{"extra", "(none)", "n4=x"}, {"orderMessageEnable", "true", "n2=false,n4=0"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("conflicts = %+v, want %+v", got, want)
	}
}

// TestSharedSettings_TooManyKeysAreRefused: an update that would make the
// cluster hold more keys than state.MaxSettingsPerScope changes nothing.
func TestSharedSettings_TooManyKeysAreRefused(t *testing.T) {
	ts := startTestServer(t, nil)
	var b strings.Builder
	for i := range state.MaxSettingsPerScope + 1 {
		b.WriteString("k" + strconv.Itoa(i) + "=v\n")
	}
	resp := ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte(b.String())))
	mustCode(t, resp, remoting.SystemError)
	if got, _ := ts.node.FSM().Settings(state.SettingsNamesrv); got["k0"] != "" {
		t.Fatal("a refused update changed the cluster's settings")
	}
}
