package main

import (
	"context"
	"fmt"
	"github.com/raftns/raftns/internal/poll"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/testtool"
)

// heartbeatingBroker registers like a broker every interval until the test ends.
func heartbeatingBroker(t *testing.T, member *proc, cluster, name, addr string, topics ...string) {
	t.Helper()
	c := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		reg := brokerRegistration(cluster, name, addr, 0, 1, topics...)
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
			c.RegisterBroker(rctx, member.ClientAddr, reg) // failures are retried on the next tick
			rcancel()
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// TestProcessStatusPageInChromium opens the status page of a three-member
// cluster with two brokers in headless Chromium, checks what it shows, keeps
// screenshots in the test's artifact directory (go test -artifacts), then
// kills a member and waits for a survivor's page to show it unreachable.
func TestProcessStatusPageInChromium(t *testing.T) {
	chromium := testtool.RequireChromium(t)
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	var followers []*proc
	for _, p := range ps {
		if p != leader {
			followers = append(followers, p)
		}
	}
	heartbeatingBroker(t, followers[0], "DefaultCluster", "broker-a", "127.0.0.1:10911", "TopicA", "TopicShared")
	heartbeatingBroker(t, leader, "DefaultCluster", "broker-b", "127.0.0.1:10921", "TopicB", "TopicShared")
	poll.For(t, 30*time.Second, "both brokers registered on every member", func() bool {
		for _, p := range ps {
			if st, ok := p.status(); !ok || st.Brokers != 2 {
				return false
			}
		}
		return true
	})

	dir := t.ArtifactDir()
	ctx := ctxT(t, 5*time.Minute)
	leaderURL := "http://" + leader.HTTPAddr + "/"
	dom, err := chromium.DumpDOM(ctx, leaderURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		wantInDOM(t, dom, fmt.Sprintf(`data-member="%s"`, p.ID), "member "+p.ID)
	}
	wantInDOM(t, dom, `data-role="leader"`, "the leader banner")
	wantInDOM(t, dom, `id="leader-id">`+leader.ID+`<`, "the leader's ID")
	wantInDOM(t, dom, `data-broker="broker-a"`, "broker-a")
	wantInDOM(t, dom, `data-broker="broker-b"`, "broker-b")
	wantInDOM(t, dom, `data-kind="broker-registered"`, "a registration event")
	wantInDOM(t, dom, `id="topic-count">3<`, "the topic count")
	if strings.Count(dom, `class="member"`) != 3 {
		t.Fatalf("want three reachable member rows; DOM:\n%s", dom)
	}
	if regexp.MustCompile(`<td>—</td><td>—</td></tr>`).MatchString(dom) {
		t.Fatalf("the leader shows a broker without heartbeat times; DOM:\n%s", dom)
	}
	shoot(t, chromium, ctx, leaderURL, filepath.Join(dir, "status-leader.png"), 1280, 1500)
	shoot(t, chromium, ctx, leaderURL, filepath.Join(dir, "status-leader-phone.png"), 390, 1800)

	survivor, victim := followers[0], followers[1]
	survivorURL := "http://" + survivor.HTTPAddr + "/"
	dom, err = chromium.DumpDOM(ctx, survivorURL)
	if err != nil {
		t.Fatal(err)
	}
	wantInDOM(t, dom, `data-role="follower"`, "the follower banner")
	wantInDOM(t, dom, `id="leader">`+leader.ID+`<`, "the leader named on a follower's page")
	wantInDOM(t, dom, `data-broker="broker-a"`, "broker-a on a follower's page")
	wantInDOM(t, dom, `heartbeat times from the leader`, "heartbeat times fetched from the leader")

	victim.Kill()
	killed := time.Now()
	unreachable := regexp.MustCompile(`data-member="` + victim.ID + `" data-role="unreachable"`)
	poll.For(t, 30*time.Second, victim.ID+" shown unreachable on "+survivor.ID+"'s page", func() bool {
		dom, err = chromium.DumpDOM(ctx, survivorURL)
		return err == nil && unreachable.MatchString(dom)
	})
	t.Logf("%s shown unreachable on %s's page %v after the kill", victim.ID, survivor.ID, time.Since(killed).Round(time.Millisecond))
	shoot(t, chromium, ctx, survivorURL, filepath.Join(dir, "status-survivor.png"), 1280, 1500)
}

func wantInDOM(t *testing.T, dom, want, what string) {
	t.Helper()
	if !strings.Contains(dom, want) {
		t.Fatalf("status page does not show %s (%q); DOM:\n%s", what, want, dom)
	}
}

func shoot(t *testing.T, c *testtool.Chromium, ctx context.Context, url, path string, w, h int) {
	t.Helper()
	if err := c.Screenshot(ctx, url, path, w, h); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
