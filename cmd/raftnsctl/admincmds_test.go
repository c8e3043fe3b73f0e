package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func TestPerm_WipeAndAddChangeTheRoute(t *testing.T) {
	registerBroker(t, "PermCluster", "perm-a", "127.0.0.1:40911", 0,
		state.TopicConfig{TopicName: "PermTopic1", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6},
		state.TopicConfig{TopicName: "PermTopic2", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6})

	r := memberCtl(t, "perm", "wipe", "perm-a").mustSucceed(t)
	if r.stdout != "write permission wiped on 2 topics of perm-a\n" {
		t.Fatalf("perm wipe printed %q", r.stdout)
	}
	if r := memberCtl(t, "route", "PermTopic1").mustSucceed(t); !strings.Contains(r.stdout, "R-- (4)") {
		t.Fatalf("route after wipe still writable:\n%s", r.stdout)
	}
	r = memberCtl(t, "perm", "add", "perm-a", "-o", "json").mustSucceed(t)
	var got permResult
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got != (permResult{Action: "add", Broker: "perm-a", TopicCount: 2}) {
		t.Fatalf("perm add -o json = %s (%v)", r.stdout, err)
	}
	if r := memberCtl(t, "route", "PermTopic1").mustSucceed(t); !strings.Contains(r.stdout, "RW- (6)") {
		t.Fatalf("route after add not writable:\n%s", r.stdout)
	}
}

func TestDeleteTopic_RemovesTheRoute(t *testing.T) {
	registerBroker(t, "DelCluster", "del-a", "127.0.0.1:41911", 0,
		state.TopicConfig{TopicName: "DelTopic", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6})
	memberCtl(t, "route", "DelTopic").mustSucceed(t)
	r := memberCtl(t, "delete-topic", "DelTopic", "--cluster", "DelCluster", "-o", "json").mustSucceed(t)
	if !strings.Contains(r.stdout, `"result": "deleted"`) || !strings.Contains(r.stdout, `"cluster": "DelCluster"`) {
		t.Fatalf("delete-topic -o json = %s", r.stdout)
	}
	memberCtl(t, "route", "DelTopic").mustFail(t, 1, "TOPIC_NOT_EXIST")
}

func TestConfig_GetAndUpdate(t *testing.T) {
	r := memberCtl(t, "config", "get").mustSucceed(t)
	if !strings.HasPrefix(r.stdout, "KEY ") || !strings.Contains(r.stdout, "orderMessageEnable") {
		t.Fatalf("config get:\n%s", r.stdout)
	}
	memberCtl(t, "config", "update", "orderMessageEnable=true").mustSucceed(t)
	r = memberCtl(t, "config", "get", "-o", "json").mustSucceed(t)
	var props map[string]string
	if err := json.Unmarshal([]byte(r.stdout), &props); err != nil || props["orderMessageEnable"] != "true" {
		t.Fatalf("config get -o json after update = %s (%v)", r.stdout, err)
	}
	memberCtl(t, "config", "update", "orderMessageEnable=false").mustSucceed(t)
	memberCtl(t, "config", "update", "kvConfigPath=/tmp/x").mustFail(t, 1, "NO_PERMISSION")
	ctl(t, "config", "update", "novalue").mustFail(t, 2, `"novalue" is not KEY=VALUE`)
}

func TestMemberGroup_ShowsLiveMembers(t *testing.T) {
	registerBroker(t, "GroupCluster", "group-a", "127.0.0.1:42911", 0)
	registerBroker(t, "GroupCluster", "group-a", "127.0.0.1:42921", 1)
	r := memberCtl(t, "member-group", "GroupCluster", "group-a").mustSucceed(t)
	rows := fieldsOfLines(r.stdout)
	if indexOfRow(rows, "group-a GroupCluster 0 127.0.0.1:42911") < 0 || indexOfRow(rows, "group-a GroupCluster 1 127.0.0.1:42921") < 0 {
		t.Fatalf("member-group:\n%s", r.stdout)
	}
	r = memberCtl(t, "member-group", "GroupCluster", "group-a", "-o", "json").mustSucceed(t)
	var g memberGroupJSON
	if err := json.Unmarshal([]byte(r.stdout), &g); err != nil || g.BrokerAddrs[1] != "127.0.0.1:42921" || g.Cluster != "GroupCluster" {
		t.Fatalf("member-group -o json = %s (%v)", r.stdout, err)
	}
	r = memberCtl(t, "member-group", "GroupCluster", "nobody").mustSucceed(t)
	if !strings.Contains(r.stdout, "no live member") {
		t.Fatalf("member-group of an unknown group: %q", r.stdout)
	}
}

func TestCompletion_PrintsScripts(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		r := ctl(t, "completion", shell).mustSucceed(t)
		if !strings.Contains(r.stdout, "raftnsctl") || len(r.stdout) < 500 {
			t.Fatalf("completion %s printed %d bytes:\n%.300s", shell, len(r.stdout), r.stdout)
		}
	}
	// Cobra's hidden completion request: the subcommands of the root.
	r := ctl(t, "__complete", "me")
	if !strings.Contains(r.stdout, "member-group") {
		t.Fatalf("completing \"me\" offered %q", r.stdout)
	}
}

// delete-topic says what it did: a topic without queues (anywhere, or on
// --cluster) is reported as not found and nothing is deleted.
func TestDeleteTopic_MissingTopicIsNotReportedDeleted(t *testing.T) {
	registerBroker(t, "KeepCluster", "keep-a", "127.0.0.1:42911", 0,
		state.TopicConfig{TopicName: "KeepTopic", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6})
	r := memberCtl(t, "delete-topic", "NoSuchTopic").mustFail(t, 1, "delete-topic NoSuchTopic: name server")
	if !strings.Contains(r.stderr, "nothing deleted") || strings.Contains(r.stdout, "deleted topic") {
		t.Fatalf("delete-topic of a missing topic: stdout %q stderr %q", r.stdout, r.stderr)
	}
	memberCtl(t, "delete-topic", "KeepTopic", "--cluster", "OtherCluster").mustFail(t, 1, "on cluster OtherCluster: nothing deleted")
	memberCtl(t, "route", "KeepTopic").mustSucceed(t)
}

// perm on a broker group the name server does not know says so.
func TestPerm_UnknownBrokerIsReported(t *testing.T) {
	for _, action := range []string{"wipe", "add"} {
		r := memberCtl(t, "perm", action, "no-such-group").
			mustFail(t, 1, "broker group no-such-group is not registered with name server")
		if r.stdout != "" {
			t.Errorf("perm %s of an unknown group printed %q", action, r.stdout)
		}
	}
}
