package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/internal/poll"
)

// zonedMembers starts n1 and n2 in zone a and n3 in zone b, client
// addresses 127.0.0.1:1000<n>; only sets AddressZoneOnly on every member.
func zonedMembers(t *testing.T, only bool) *clustertest.Members {
	return clustertest.Start(t, 3, func(c *cluster.Config) {
		c.ClientAddr = "127.0.0.1:1000" + c.ID[1:]
		c.Zone = map[string]string{"n1": "a", "n2": "a", "n3": "b"}[c.ID]
		c.AddressZoneOnly = only
	})
}

func TestAddressService_ZoneSubgroupListsThatZoneFirstOnEveryMember(t *testing.T) {
	ms := zonedMembers(t, false)
	answers := map[string]string{
		"/rocketmq/nsaddr-b":         "127.0.0.1:10003;127.0.0.1:10001;127.0.0.1:10002",
		"/rocketmq/nsaddr-B?nofix=1": "127.0.0.1:10003;127.0.0.1:10001;127.0.0.1:10002",
		"/rocketmq/nsaddr-a":         "127.0.0.1:10001;127.0.0.1:10002;127.0.0.1:10003",
		// A Java client with unit name b (5.x, with parameters too).
		"/rocketmq/nsaddr-b?nofix=1&k=v": "127.0.0.1:10003;127.0.0.1:10001;127.0.0.1:10002",
		// Plain, and a zone no member carries: the answer by member id.
		"/rocketmq/nsaddr":         "127.0.0.1:10001;127.0.0.1:10002;127.0.0.1:10003",
		"/rocketmq/nsaddr-c":       "127.0.0.1:10001;127.0.0.1:10002;127.0.0.1:10003",
		"/rocketmq/nsaddr-center?": "127.0.0.1:10001;127.0.0.1:10002;127.0.0.1:10003",
	}
	for _, n := range ms.Running() {
		h := New(n, NewMetrics(n).Registry, nil).Handler()
		for path, want := range answers {
			poll.For(t, 15*time.Second, n.ID()+" "+path, func() bool {
				code, body := get(t, h, path)
				return code == http.StatusOK && body == want
			})
		}
	}
}

func TestAddressService_ZoneOnlyListsTheZoneAloneUntilNoneOfItIsReady(t *testing.T) {
	ms := zonedMembers(t, true)
	var n1 *cluster.Node
	for _, n := range ms.Running() {
		if n.ID() == "n1" {
			n1 = n
		}
	}
	h := New(n1, NewMetrics(n1).Registry, nil).Handler()
	for path, want := range map[string]string{
		"/rocketmq/nsaddr-b": "127.0.0.1:10003",
		"/rocketmq/nsaddr-a": "127.0.0.1:10001;127.0.0.1:10002",
		"/rocketmq/nsaddr":   "127.0.0.1:10001;127.0.0.1:10002;127.0.0.1:10003",
	} {
		poll.For(t, 15*time.Second, path, func() bool {
			code, body := get(t, h, path)
			return code == http.StatusOK && body == want
		})
	}
	for _, n := range ms.Running() {
		if n.ID() == "n3" {
			ms.Stop(n)
		}
	}
	// With zone b's only member gone, its callers get the others rather
	// than a list of members that do not answer.
	// (Readiness follows the leader's view: when n3 led, a new leader must
	// be elected and hear from the members first.)
	var last string
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last nsaddr-b answer: %s", last)
		}
	})
	poll.For(t, time.Minute, "nsaddr-b without zone b", func() bool {
		code, body := get(t, h, "/rocketmq/nsaddr-b")
		last = fmt.Sprint(code, " ", body)
		return code == http.StatusOK && !strings.Contains(body, ":10003") && strings.Contains(body, ":10001")
	})
}
