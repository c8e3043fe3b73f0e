package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// registerBroker registers a broker with the real member, as a broker does.
func registerBroker(t *testing.T, cluster, name, addr string, id int64, topics ...state.TopicConfig) {
	t.Helper()
	c := nsclient.New(remoting.ClientConfig{RequestTimeout: 10 * time.Second})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reg := &nsclient.Registration{
		ClusterName: cluster, BrokerName: name, BrokerAddr: addr, HaServerAddr: addr, BrokerID: id,
		Body: body.RegisterBody{
			DataVersion:         state.DataVersion{Timestamp: time.Now().UnixMilli(), Counter: 1},
			TopicConfigs:        topics,
			HasFilterServerList: true,
		},
	}
	if _, err := c.RegisterBroker(ctx, member.ClientAddr, reg); err != nil {
		t.Fatalf("register %s %s: %v", name, addr, err)
	}
}

func TestRoute_ShowsBrokersAndQueues(t *testing.T) {
	registerBroker(t, "RouteCluster", "route-b", "127.0.0.1:20911", 0,
		state.TopicConfig{TopicName: "RouteTopic", ReadQueueNums: 8, WriteQueueNums: 4, Perm: 6})
	registerBroker(t, "RouteCluster", "route-a", "127.0.0.1:10911", 0,
		state.TopicConfig{TopicName: "RouteTopic", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 4})
	registerBroker(t, "RouteCluster", "route-a", "127.0.0.1:10921", 1,
		state.TopicConfig{TopicName: "RouteTopic", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 4})

	r := memberCtl(t, "route", "RouteTopic").mustSucceed(t)
	want := `Topic: RouteTopic

BROKER   CLUSTER       ID  ADDRESS
route-a  RouteCluster  0   127.0.0.1:10911
route-a  RouteCluster  1   127.0.0.1:10921
route-b  RouteCluster  0   127.0.0.1:20911

QUEUE BROKER  READ  WRITE  PERM
route-a       4     4      R-- (4)
route-b       8     4      RW- (6)
`
	if r.stdout != want {
		t.Fatalf("route output:\n%s\nwant:\n%s", r.stdout, want)
	}

	r = memberCtl(t, "route", "RouteTopic", "-o", "json").mustSucceed(t)
	var got routeJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("route -o json: %v\n%s", err, r.stdout)
	}
	if len(got.BrokerDatas) != 2 || got.BrokerDatas[0].BrokerAddrs[1] != "127.0.0.1:10921" ||
		len(got.QueueDatas) != 2 || got.QueueDatas[1].ReadQueueNums != 8 || got.QueueDatas[1].Perm != 6 {
		t.Fatalf("route -o json = %+v", got)
	}
	if !strings.Contains(r.stdout, `"brokerAddrs": {`+"\n"+`        "0": "127.0.0.1:10911",`) {
		t.Errorf("route -o json should key brokerAddrs by id as JSON strings:\n%s", r.stdout)
	}
}

func TestRoute_UnknownTopicExitsOne(t *testing.T) {
	r := memberCtl(t, "route", "NoSuchTopic").mustFail(t, 1, "TOPIC_NOT_EXIST")
	if !strings.Contains(r.stderr, "name server "+member.ClientAddr) || r.stdout != "" {
		t.Fatalf("stderr = %q, stdout = %q; want the address in stderr and no stdout", r.stderr, r.stdout)
	}
}

func TestClustersAndTopics_ListRegisteredBrokers(t *testing.T) {
	registerBroker(t, "ListCluster", "list-b", "127.0.0.1:30911", 0,
		state.TopicConfig{TopicName: "ListTopicB", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6})
	registerBroker(t, "ListCluster", "list-a", "127.0.0.1:31911", 0,
		state.TopicConfig{TopicName: "ListTopicA", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6})

	r := memberCtl(t, "clusters").mustSucceed(t)
	if !strings.HasPrefix(r.stdout, "CLUSTER ") {
		t.Errorf("clusters output lacks its header:\n%s", r.stdout)
	}
	rows := fieldsOfLines(r.stdout)
	if i, j := indexOfRow(rows, "ListCluster list-a 0 127.0.0.1:31911"), indexOfRow(rows, "ListCluster list-b 0 127.0.0.1:30911"); i < 0 || j != i+1 {
		t.Errorf("clusters output should list list-a then list-b of ListCluster:\n%s", r.stdout)
	}

	r = memberCtl(t, "clusters", "-o", "json").mustSucceed(t)
	var ci clusterJSON
	if err := json.Unmarshal([]byte(r.stdout), &ci); err != nil {
		t.Fatalf("clusters -o json: %v\n%s", err, r.stdout)
	}
	if got := strings.Join(ci.ClusterAddrTable["ListCluster"], ","); got != "list-a,list-b" {
		t.Errorf("clusterAddrTable[ListCluster] = %s, want list-a,list-b", got)
	}
	if ci.BrokerAddrTable["list-a"].BrokerAddrs[0] != "127.0.0.1:31911" || ci.BrokerAddrTable["list-a"].Cluster != "ListCluster" {
		t.Errorf("brokerAddrTable[list-a] = %+v", ci.BrokerAddrTable["list-a"])
	}

	r = memberCtl(t, "topics").mustSucceed(t)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if i, j := indexOfLine(lines, "ListTopicA"), indexOfLine(lines, "ListTopicB"); i < 0 || j != i+1 {
		t.Errorf("topics should list ListTopicA then ListTopicB, sorted:\n%s", r.stdout)
	}
	r = memberCtl(t, "topics", "-o", "json").mustSucceed(t)
	var tl struct{ TopicList []string }
	if err := json.Unmarshal([]byte(r.stdout), &tl); err != nil || indexOfLine(tl.TopicList, "ListTopicA") < 0 {
		t.Errorf("topics -o json = %s (err %v), want ListTopicA in topicList", r.stdout, err)
	}
}

func TestNameServer_UnreachableNamesTheAddress(t *testing.T) {
	addr := closedPort(t)
	for _, args := range [][]string{{"topics"}, {"clusters"}, {"route", "T"}, {"kv", "list", "NS"}, {"kv", "get", "NS", "k"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ctl(t, append([]string{"--namesrv", addr, "--timeout", "5s"}, args...)...).mustFail(t, 1, "name server "+addr)
		})
	}
}

func TestPermString_RendersEachBit(t *testing.T) {
	cases := map[int32]string{0: "---", 1: "--X", 2: "-W-", 4: "R--", 6: "RW-", 7: "RWX"}
	for perm, want := range cases {
		if got := permString(perm); got != want {
			t.Errorf("permString(%d) = %s, want %s", perm, got, want)
		}
	}
}

func fieldsOfLines(s string) []string {
	var rows []string
	for _, l := range strings.Split(s, "\n") {
		rows = append(rows, strings.Join(strings.Fields(l), " "))
	}
	return rows
}

func indexOfRow(rows []string, want string) int { return indexOfLine(rows, want) }

func indexOfLine(lines []string, want string) int {
	for i, l := range lines {
		if l == want {
			return i
		}
	}
	return -1
}
