package namesrv

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func registerBody(t *testing.T, counter int64, topics ...string) []byte {
	t.Helper()
	rb := &body.RegisterBody{DataVersion: state.DataVersion{Timestamp: 1700000000000, Counter: counter}, HasFilterServerList: true}
	for _, tp := range topics {
		rb.TopicConfigs = append(rb.TopicConfigs, state.TopicConfig{TopicName: tp, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
	}
	b, err := body.EncodeRegisterBody(rb, false, nsclient.Version5)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func brokerExt(name, addr string, id string) map[string]string {
	return map[string]string{"brokerName": name, "brokerAddr": addr, "clusterName": "DefaultCluster",
		"haServerAddr": addr + "1", "brokerId": id, "enableActingMaster": "false"}
}

func mustCode(t *testing.T, resp *remoting.Command, want int32) {
	t.Helper()
	if resp.Code != want {
		t.Fatalf("response code = %d (%q), want %d", resp.Code, resp.Remark, want)
	}
}

func TestHandlers_RegisterRouteAndMasterSlave(t *testing.T) {
	ts := startTestServer(t, nil)
	resp := ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA", "TopicB")))
	mustCode(t, resp, remoting.Success)
	if resp.ExtFields == nil || resp.ExtFields["masterAddr"] != "" {
		t.Fatalf("master answer ext = %v, want {} without masterAddr", resp.ExtFields)
	}
	resp = ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.2:10911", "1"), registerBody(t, 1, "TopicA", "TopicB")))
	mustCode(t, resp, remoting.Success)
	if resp.ExtFields["masterAddr"] != "10.0.0.1:10911" || resp.ExtFields["haServerAddr"] != "10.0.0.1:109111" {
		t.Fatalf("slave answer ext = %v", resp.ExtFields)
	}

	cases := []struct {
		name    string
		version int32
		ext     map[string]string
		key     string
	}{
		{"go client gets unquoted ids", 317, map[string]string{"topic": "TopicA"}, `{0:"10.0.0.1:10911",1:"10.0.0.2:10911"}`},
		{"4.9.4+ gets standard JSON", 409, map[string]string{"topic": "TopicA"}, `{"0":"10.0.0.1:10911","1":"10.0.0.2:10911"}`},
		{"acceptStandardJsonOnly wins", 317, map[string]string{"topic": "TopicA", "acceptStandardJsonOnly": "TRUE"}, `{"0":"10.0.0.1:10911"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := ts.call(t, req(remoting.GetRouteInfoByTopic, tc.version, tc.ext, nil))
			mustCode(t, resp, remoting.Success)
			if !strings.Contains(string(resp.Body), tc.key) {
				t.Fatalf("route body %s lacks %s", resp.Body, tc.key)
			}
		})
	}
	resp = ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "Nope"}, nil))
	mustCode(t, resp, remoting.TopicNotExist)
	if !strings.HasPrefix(resp.Remark, "No topic route info in name server for the topic: Nope\nSee ") {
		t.Fatalf("remark = %q", resp.Remark)
	}
}

func TestHandlers_OnewayRegistrationIsAppliedNotAnswered(t *testing.T) {
	ts := startTestServer(t, nil)
	r := req(remoting.RegisterBroker, 409, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))
	if err := ts.client.Remoting().InvokeOneway(context.Background(), ts.addr, r); err != nil {
		t.Fatal(err)
	}
	poll.For(t, 5*time.Second, "the oneway registration to be applied", func() bool {
		_, ok := ts.node.FSM().Route("TopicA", false)
		return ok
	})
}

func TestHandlers_KVConfig(t *testing.T) {
	ts := startTestServer(t, nil)
	kv := func(code int32, ext map[string]string) *remoting.Command { return ts.call(t, req(code, 479, ext, nil)) }
	mustCode(t, kv(remoting.PutKVConfig, map[string]string{"namespace": "NS", "key": "k", "value": "v"}), remoting.Success)
	resp := kv(remoting.GetKVConfig, map[string]string{"namespace": "NS", "key": "k"})
	mustCode(t, resp, remoting.Success)
	if resp.ExtFields["value"] != "v" {
		t.Fatalf("value = %q", resp.ExtFields["value"])
	}
	resp = kv(remoting.GetKVConfig, map[string]string{"namespace": "NS", "key": "missing"})
	mustCode(t, resp, remoting.QueryNotFound)
	if resp.Remark != "No config item, Namespace: NS Key: missing" || resp.ExtFields == nil {
		t.Fatalf("miss = %q %v", resp.Remark, resp.ExtFields)
	}
	mustCode(t, kv(remoting.DeleteKVConfig, map[string]string{"namespace": "NS", "key": "k"}), remoting.Success)
	resp = kv(remoting.GetKVListByNamespace, map[string]string{"namespace": "NS"})
	mustCode(t, resp, remoting.Success)
	if string(resp.Body) != `{"table":{}}` {
		t.Fatalf("emptied namespace = %s, want an empty table", resp.Body)
	}
	resp = kv(remoting.GetKVListByNamespace, map[string]string{"namespace": "Other"})
	mustCode(t, resp, remoting.QueryNotFound)
	resp = kv(remoting.PutKVConfig, map[string]string{"key": "k", "value": "v"})
	mustCode(t, resp, remoting.SystemError)
	if resp.Remark != "namespace or key is null" {
		t.Fatalf("remark = %q", resp.Remark)
	}
}

func TestHandlers_WritePermAndTopics(t *testing.T) {
	ts := startTestServer(t, nil)
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA", "TopicB"))), remoting.Success)
	for _, tc := range []struct {
		code  int32
		field string
	}{{remoting.WipeWritePermOfBroker, "wipeTopicCount"}, {remoting.WipeWritePermOfBroker, "wipeTopicCount"}, {remoting.AddWritePermOfBroker, "addTopicCount"}} {
		resp := ts.call(t, req(tc.code, 479, map[string]string{"brokerName": "broker-a"}, nil))
		mustCode(t, resp, remoting.Success)
		if resp.ExtFields[tc.field] != "2" {
			t.Fatalf("code %d %s = %q, want 2", tc.code, tc.field, resp.ExtFields[tc.field])
		}
	}
	resp := ts.call(t, req(remoting.GetTopicsByCluster, 479, map[string]string{"cluster": "DefaultCluster"}, nil))
	mustCode(t, resp, remoting.Success)
	if string(resp.Body) != `{"topicList":["TopicA","TopicB"]}` {
		t.Fatalf("topics by cluster = %s", resp.Body)
	}
	resp = ts.call(t, req(remoting.GetTopicsByCluster, 479, map[string]string{"cluster": "Unknown"}, nil))
	mustCode(t, resp, remoting.Success)
	if string(resp.Body) != `{"topicList":[]}` {
		t.Fatalf("unknown cluster = %s", resp.Body)
	}
	resp = ts.call(t, req(remoting.GetSystemTopicListFromNS, 479, nil, nil))
	if string(resp.Body) != `{"brokerAddr":"10.0.0.1:10911","topicList":["DefaultCluster","broker-a"]}` {
		t.Fatalf("system topics = %s", resp.Body)
	}
	mustCode(t, ts.call(t, req(remoting.DeleteTopicInNameSrv, 479, map[string]string{"topic": "TopicA"}, nil)), remoting.Success)
	resp = ts.call(t, req(remoting.GetAllTopicListFromNameSrv, 479, nil, nil))
	if string(resp.Body) != `{"topicList":["TopicB"]}` {
		t.Fatalf("all topics after delete = %s", resp.Body)
	}
	route := &state.TopicRouteData{QueueDatas: []state.QueueData{{BrokerName: "broker-a", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6}}}
	mustCode(t, ts.call(t, req(remoting.RegisterTopicInNameSrv, 479, map[string]string{"topic": "TopicC"}, body.EncodeTopicRouteData(route))), remoting.Success)
	if r, ok := ts.node.FSM().Route("TopicC", false); !ok || r.QueueDatas[0].ReadQueueNums != 2 {
		t.Fatalf("registered topic route = %+v %v", r, ok)
	}
	resp = ts.call(t, req(remoting.GetBrokerMemberGroup, 479, map[string]string{"clusterName": "DefaultCluster", "brokerName": "broker-a"}, nil))
	if string(resp.Body) != `{"brokerMemberGroup":{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}}` {
		t.Fatalf("member group = %s", resp.Body)
	}
}

func TestHandlers_QueryDataVersionAndHeartbeat(t *testing.T) {
	ts := startTestServer(t, nil)
	ext := brokerExt("broker-a", "10.0.0.1:10911", "0")
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, ext, registerBody(t, 7, "TopicA"))), remoting.Success)
	same := body.EncodeDataVersion(state.DataVersion{Timestamp: 1700000000000, Counter: 7})
	other := body.EncodeDataVersion(state.DataVersion{Timestamp: 1700000000000, Counter: 8})
	for _, tc := range []struct {
		name    string
		ext     map[string]string
		body    []byte
		changed string
	}{
		{"same version", ext, same, "false"},
		{"other version", ext, other, "true"},
		{"no body", ext, nil, "true"},
		{"unknown broker", brokerExt("broker-x", "10.9.9.9:1", "0"), same, "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := ts.call(t, req(remoting.QueryDataVersion, 479, tc.ext, tc.body))
			mustCode(t, resp, remoting.Success)
			if resp.ExtFields["changed"] != tc.changed {
				t.Fatalf("changed = %q, want %s", resp.ExtFields["changed"], tc.changed)
			}
		})
	}
	resp := ts.call(t, req(remoting.QueryDataVersion, 479, ext, same))
	if string(resp.Body) != `{"counter":7,"stateVersion":0,"timestamp":1700000000000}` {
		t.Fatalf("stored version = %s", resp.Body)
	}
	mustCode(t, ts.call(t, req(remoting.BrokerHeartbeat, 479, ext, nil)), remoting.Success)
}

func TestHandlers_NamesrvConfig(t *testing.T) {
	ts := startTestServer(t, nil)
	mustCode(t, ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte("orderMessageEnable=true\n"))), remoting.Success)
	resp := ts.call(t, req(remoting.GetNamesrvConfig, 479, nil, nil))
	if !strings.Contains(string(resp.Body), "orderMessageEnable=true\n") {
		t.Fatalf("config = %s", resp.Body)
	}
	for _, key := range []string{"kvConfigPath", "configStorePath", "dataDir"} {
		resp = ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte(key+"=/tmp/x\norderMessageEnable=false\n")))
		mustCode(t, resp, remoting.NoPermission)
	}
	if !ts.srv.cfg.Settings.Bool(PropOrderMessageEnable, false) {
		t.Fatal("a refused update changed a setting")
	}
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)
	mustCode(t, ts.call(t, req(remoting.PutKVConfig, 479, map[string]string{"namespace": "ORDER_TOPIC_CONFIG", "key": "TopicA", "value": "broker-a:8"}, nil)), remoting.Success)
	resp = ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil))
	if !strings.Contains(string(resp.Body), `"orderTopicConf":"broker-a:8"`) {
		t.Fatalf("route with orderMessageEnable = %s", resp.Body)
	}
}

func TestHandlers_UnknownCode(t *testing.T) {
	ts := startTestServer(t, nil)
	resp := ts.call(t, req(9999, 479, nil, nil))
	mustCode(t, resp, remoting.RequestCodeNotSupported)
	if resp.Remark != " request type 9999 not supported" {
		t.Fatalf("remark = %q", resp.Remark)
	}
}

func TestHandlers_ListSwitchesRefuseWhenOff(t *testing.T) {
	ts := startTestServer(t, nil)
	mustCode(t, ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte("enableTopicList=false\nenableAllTopicList=false\n"))), remoting.Success)
	for _, code := range []int32{remoting.GetAllTopicListFromNameSrv, remoting.GetTopicsByCluster, remoting.GetUnitTopicList,
		remoting.GetHasUnitSubTopicList, remoting.GetHasUnitSubUnunitTopicList} {
		resp := ts.call(t, req(code, 479, map[string]string{"cluster": "c"}, nil))
		mustCode(t, resp, remoting.SystemError)
		if resp.Remark != "disable" {
			t.Fatalf("code %d remark = %q, want disable", code, resp.Remark)
		}
	}
	mustCode(t, ts.call(t, req(remoting.GetSystemTopicListFromNS, 479, nil, nil)), remoting.Success)
}
