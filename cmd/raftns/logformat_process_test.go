package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// TestProcessJSONLogsHaveStableFields runs a member with --log-format json
// and checks that every line is one JSON object naming the member, and that
// broker, cluster, topic and term appear under those names.
func TestProcessJSONLogsHaveStableFields(t *testing.T) {
	p := newProc(t, "solo", "--log-format", "json")
	p.start()
	p.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 30*time.Second)
	if _, err := c.RegisterBroker(ctx, p.ClientAddr, brokerRegistration("ClusterJ", "broker-j", "127.0.0.1:10911", 0, 1, "TopicJ")); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteTopic(ctx, p.ClientAddr, "TopicJ", "ClusterJ"); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"gained leadership":     {"term": ""},
		"new broker registered": {"broker": "broker-j", "cluster": "ClusterJ"},
		"topic deleted":         {"topic": "TopicJ", "cluster": "ClusterJ"},
		"raftns member started": {"cluster_addr": p.ClusterAddr, "client_addr": p.ClientAddr},
		"leader ready":          {},
		"entering leader state": {},
	}
	var lines []map[string]any
	poll.For(t, 10*time.Second, "the expected log lines", func() bool {
		lines = lines[:0]
		for _, line := range strings.Split(strings.TrimSpace(p.Log()), "\n") {
			var obj map[string]any
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				t.Fatalf("log line is not a JSON object: %q: %v", line, err)
			}
			lines = append(lines, obj)
		}
		for msg := range want {
			if findLine(lines, msg) == nil {
				return false
			}
		}
		return true
	})
	for _, obj := range lines {
		if obj["member"] != "solo" || obj["@message"] == nil || obj["@level"] == nil || obj["@timestamp"] == nil {
			t.Fatalf("log line without member, @message, @level or @timestamp: %v", obj)
		}
	}
	for msg, fields := range want {
		obj := findLine(lines, msg)
		for k, v := range fields {
			got, ok := obj[k]
			if !ok || (v != "" && got != v) {
				t.Fatalf("line %q: field %s = %v, want %q (line: %v)", msg, k, got, v, obj)
			}
		}
	}
	if term, _ := findLine(lines, "gained leadership")["term"].(float64); term < 1 {
		t.Fatalf("gained leadership logged term %v", term)
	}
}

// findLine returns the first log line whose message starts with msg.
func findLine(lines []map[string]any, msg string) map[string]any {
	for _, obj := range lines {
		if m, _ := obj["@message"].(string); strings.HasPrefix(m, msg) {
			return obj
		}
	}
	return nil
}
