package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/adminapi"
)

// --consistent reads through the admin API's leader-checked reads and
// prints what the client-port read prints.
func TestConsistentReads_RealMember(t *testing.T) {
	memberCtl(t, "kv", "put", "CONSISTENT_NS", "k", "v 1").mustSucceed(t)
	if r := memberCtl(t, "kv", "get", "--consistent", "CONSISTENT_NS", "k").mustSucceed(t); r.stdout != "v 1\n" {
		t.Fatalf("kv get --consistent = %q, want the value just written", r.stdout)
	}
	r := memberCtl(t, "kv", "get", "--consistent", "CONSISTENT_NS", "k", "-o", "json").mustSucceed(t)
	var e adminapi.KV
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e != (adminapi.KV{Namespace: "CONSISTENT_NS", Key: "k", Value: "v 1"}) {
		t.Fatalf("kv get --consistent -o json = %s (err %v)", r.stdout, err)
	}
	if r := memberCtl(t, "kv", "get", "--consistent", "CONSISTENT_NS", "missing"); r.code == 0 || !strings.Contains(r.stderr, "404") && !strings.Contains(r.stderr, "no key") {
		t.Fatalf("kv get --consistent of a missing key: exit %d, stderr %q; want a failure naming it", r.code, r.stderr)
	}
	if r := memberCtl(t, "route", "--consistent", "NoSuchTopicAnywhere"); r.code == 0 || !strings.Contains(r.stderr, "no route") {
		t.Fatalf("route --consistent of a missing topic: exit %d, stderr %q", r.code, r.stderr)
	}
}
