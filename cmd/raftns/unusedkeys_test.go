package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raftns/raftns/namesrv"
)

// A key RaftNS reads is never reported as unused.
func TestUnusedReferenceKeys_AreNotRead(t *testing.T) {
	c := defaultConfig()
	used := c.setters()
	for _, k := range namesrvBoolKeys {
		used[k] = nil
	}
	for _, k := range []string{namesrv.PropConfigBlackList, namesrv.PropClusterTest, namesrv.PropProductEnvName, namesrv.PropNamesrvAddr} {
		used[k] = nil
	}
	for k := range unusedReferenceKeys {
		if _, ok := used[k]; ok {
			t.Errorf("%s is read by RaftNS but listed as unused", k)
		}
	}
}

// A member started with a reference namesrv.properties warns once per
// setting it does not use and says what to do; settings it uses draw no
// warning.
func TestProcessWarnsOncePerUnusedReferenceSetting(t *testing.T) {
	file := filepath.Join(t.TempDir(), "namesrv.properties")
	text := "rocketmqHome=/opt/rocketmq\nkvConfigPath=/root/namesrv/kvConfig.json\nserverWorkerThreads=8\n" +
		"orderMessageEnable=true\nscanNotActiveBrokerInterval=5000\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newProc(t, "solo", "-c", file)
	p.start()
	p.waitReady()
	log := p.Log()
	for key, advice := range map[string]string{
		"kvConfigPath":        "`raftnsctl kv import FILE`",
		"rocketmqHome":        "reads nothing under ROCKETMQ_HOME",
		"serverWorkerThreads": "no thread pools",
	} {
		if n := strings.Count(log, "key="+key+" "); n != 1 {
			t.Errorf("%d warnings about %s, want 1:\n%s", n, key, log)
		}
		if !strings.Contains(log, advice) {
			t.Errorf("no advice %q for %s:\n%s", advice, key, log)
		}
	}
	for _, key := range []string{"orderMessageEnable", "scanNotActiveBrokerInterval"} {
		if strings.Contains(log, "key="+key+" ") {
			t.Errorf("%s, which RaftNS uses, drew a warning:\n%s", key, log)
		}
	}
}
