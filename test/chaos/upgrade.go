package chaos

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// UpgradeConfig describes a rolling upgrade: Members members of the Old
// build under the chaos workload, replaced one at a time by the New build
// (stop, replace the binary, start on the same data dir, wait until
// ready), then the first one downgraded back to Old.
type UpgradeConfig struct {
	Old, New string
	// NewRelease is the release the New build reports in /v1/status,
	// OldRelease the Old build's ("" for a build from before releases).
	NewRelease  string
	OldRelease  string
	Dir, OutDir string
	Seed        uint64
	Members     int
	Clients     int
	// LiveBrokers register with every member once a second throughout;
	// none may be expired.
	LiveBrokers int
	// Settle is how long the workload runs before the first step and
	// after each one.
	Settle time.Duration
}

// Upgrade steps as they appear in Result.Faults and the history. After
// the downgrade the member is upgraded again, the upgrade finalized, and
// a member of the new build loses its disk.
const (
	StepUpgrade   = "upgrade"
	StepDowngrade = "downgrade"
	StepFinalize  = "finalize"
	StepDiskLoss  = "disk-loss"
)

// stopGrace bounds a member's orderly shutdown (SIGTERM) before SIGKILL.
const stopGrace = 15 * time.Second

// RunUpgrade runs the rolling upgrade and checks the history as Run does;
// Result.RouteProbes and RouteMisses say whether some member answered a
// route query throughout.
func RunUpgrade(cfg UpgradeConfig) (*Result, error) {
	chaosCfg := Config{Binary: cfg.Old, Dir: cfg.Dir, OutDir: cfg.OutDir, Seed: cfg.Seed, Members: cfg.Members,
		Clients: cfg.Clients, Duration: time.Duration(cfg.Members+2) * cfg.Settle}
	var probes routeProbes
	var failures []string
	res, err := runDriven(chaosCfg, -1, cfg.LiveBrokers, func(c *procCluster, h *history, stop chan struct{}) (map[string]int, []string) {
		probeStop := make(chan struct{})
		probeDone := make(chan struct{})
		go func() {
			defer close(probeDone)
			probes.run(c, h, liveName(0), probeStop)
		}()
		defer func() { close(probeStop); <-probeDone }()
		counts, notes, failed := upgradeSteps(cfg, c, h, stop)
		failures = failed
		return counts, notes
	})
	res.RouteProbes, res.RouteMisses, res.StepFailures = probes.total, probes.missed, len(failures)
	if res.OwnMisses > 0 {
		// Members of a build from before members waited to apply the
		// writes they answer do not hold the check; it is reported only.
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d local reads missed a write their member had acknowledged (not enforced with builds that predate read-your-writes)",
			res.OwnMisses, res.OwnReads))
		res.OwnMisses = 0
	}
	if probes.missed > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("no member answered a route query at %v (for %v in a row at most)",
			probes.when, probes.longest))
	}
	return res, err
}

// upgradeSteps replaces every member's binary in turn, then downgrades the
// first one; it returns the steps done and, when one failed, why (it stops
// there). After each step every member must report the release of the
// build it runs, and the status page of a member of the new build must say
// whether the releases differ.
func upgradeSteps(cfg UpgradeConfig, c *procCluster, h *history, stop chan struct{}) (map[string]int, []string, []string) {
	counts := map[string]int{}
	if !poll.Sleep(cfg.Settle, stop) {
		return counts, nil, nil
	}
	ms := c.current()
	type step struct {
		kind string
		m    *member
		bin  string
	}
	var steps []step
	for _, m := range ms {
		steps = append(steps, step{StepUpgrade, m, cfg.New})
	}
	steps = append(steps, step{StepDowngrade, ms[0], cfg.Old}, step{StepUpgrade, ms[0], cfg.New},
		step{StepFinalize, ms[0], cfg.New}, step{StepDiskLoss, ms[len(ms)-1], cfg.New})
	var done []string
	for _, st := range steps {
		start := h.now()
		var err error
		switch st.kind {
		case StepFinalize:
			err = finalize(c)
		case StepDiskLoss:
			err = loseDisk(c, st.m)
		default:
			err = replaceBinary(c, st.m, st.bin)
		}
		detail := fmt.Sprintf("%s %s at %v", st.kind, st.m.ID, time.Duration(start).Round(time.Millisecond))
		h.addFault(fault{Kind: st.kind, Detail: detail, Start: start, End: h.now()})
		if err == nil {
			// A member's view of the others can lag a restart by a probe.
			var last error
			err = poll.Until(context.Background(), 15*time.Second, 200*time.Millisecond, "members reporting their releases",
				func() (bool, error) { last = checkReleases(c, cfg); return last == nil, nil })
			if err != nil {
				err = fmt.Errorf("%w: %w", err, last)
			}
		}
		if err == nil && st.kind == StepDowngrade {
			err = checkFinalizeRefused(c, st.m, cfg)
		}
		if err != nil {
			failed := detail + ": " + err.Error()
			return counts, append(done, failed), []string{failed}
		}
		counts[st.kind]++
		done = append(done, fmt.Sprintf("%s, ready after %v", detail, time.Duration(h.now()-start).Round(time.Millisecond)))
		if !poll.Sleep(cfg.Settle, stop) {
			break
		}
	}
	return counts, done, nil
}

// finalize raises the cluster version through the leader.
func finalize(c *procCluster) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	leader := c.leader(ctx)
	if leader == nil {
		return fmt.Errorf("no leader to finalize the upgrade")
	}
	resp, err := leader.Do(ctx, http.MethodPost, "/v1/upgrade/finalize")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
		return fmt.Errorf("finalize = HTTP %d %s", resp.StatusCode, b)
	}
	return nil
}

// loseDisk kills m, removes its data dir and starts it again on an empty
// one; it must come back as a voter by itself.
func loseDisk(c *procCluster, m *member) error {
	c.kill(m)
	if err := os.RemoveAll(m.DataDir); err != nil {
		return err
	}
	if err := c.restart(m); err != nil {
		return err
	}
	return poll.Until(context.Background(), 90*time.Second, 200*time.Millisecond, m.ID+" a voter again",
		func() (bool, error) {
			var st struct {
				Ready     bool   `json:"ready"`
				Admission string `json:"admission"`
			}
			if getJSON(m, "/v1/status", &st) != nil || !st.Ready || st.Admission != "" {
				return false, nil
			}
			var peers []struct {
				ID       string `json:"id"`
				Suffrage string `json:"suffrage"`
			}
			if getJSON(m, "/v1/peers", &peers) != nil {
				return false, nil
			}
			for _, p := range peers {
				if p.ID == m.ID {
					return p.Suffrage == "Voter", nil
				}
			}
			return false, nil
		})
}

// replaceBinary stops m in order, starts bin on the same data dir with the
// same arguments and waits until the member is ready again.
func replaceBinary(c *procCluster, m *member, bin string) error {
	if err := m.Terminate(stopGrace); err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	m.Binary = bin
	if err := c.restart(m); err != nil {
		return err
	}
	return m.WaitReady(context.Background(), 60*time.Second)
}

// routeProbes asks every member for one route every probeEvery and counts
// the rounds in which no member answered it.
type routeProbes struct {
	total, missed int
	longest       time.Duration
	// when lists the misses' times since the run's start.
	when []string
}

const probeEvery = 100 * time.Millisecond

func (p *routeProbes) run(c *procCluster, h *history, broker string, stop <-chan struct{}) {
	nc := nsclient.New(remoting.DefaultClientConfig())
	defer nc.Close()
	var missingSince time.Time
	for poll.Sleep(probeEvery, stop) {
		ok := p.round(nc, c, topicOf(broker))
		p.total++
		if !ok {
			p.when = append(p.when, time.Duration(h.now()).Round(time.Millisecond).String())
		}
		switch {
		case ok:
			missingSince = time.Time{}
		case missingSince.IsZero():
			p.missed++
			missingSince = time.Now()
		default:
			p.missed++
			p.longest = max(p.longest, time.Since(missingSince))
		}
	}
}

// round asks every member at once and reports whether one found the route.
func (p *routeProbes) round(nc *nsclient.Client, c *procCluster, topic string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	found := false
	for _, m := range c.current() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd, err := nc.GetRoute(ctx, m.ClientAddr, topic)
			if err == nil && len(rd.QueueDatas) > 0 {
				mu.Lock()
				found = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return found
}

// checkReleases asks every member which release it runs: a member of the
// new build reports cfg.NewRelease, one of the old build none. Every
// member must reach every other one through the status answers members
// exchange, and each member of the new build must show the mixed-release
// banner exactly while the members differ.
func checkReleases(c *procCluster, cfg UpgradeConfig) error {
	releases := map[string]bool{}
	var newer []*member
	for _, m := range c.current() {
		var st struct {
			Build struct {
				Release string `json:"release"`
			} `json:"build"`
		}
		if err := getJSON(m, "/v1/status", &st); err != nil {
			return fmt.Errorf("status of %s: %w", m.ID, err)
		}
		want := cfg.OldRelease
		if m.Binary == cfg.New {
			want = cfg.NewRelease
			newer = append(newer, m)
		}
		if st.Build.Release != want {
			return fmt.Errorf("%s reports release %q, want %q", m.ID, st.Build.Release, want)
		}
		releases[st.Build.Release] = true
	}
	for _, m := range c.current() {
		// Members read each other's release from the status answer; one
		// of the old build must still read the new build's.
		var peers []struct {
			ID        string `json:"id"`
			Reachable bool   `json:"reachable"`
		}
		if err := getJSON(m, "/v1/peers", &peers); err != nil {
			return fmt.Errorf("peers of %s: %w", m.ID, err)
		}
		for _, p := range peers {
			if !p.Reachable {
				return fmt.Errorf("%s (%s) finds %s unreachable", m.ID, buildOf(m, cfg), p.ID)
			}
		}
	}
	for _, m := range newer {
		page, err := getPage(m, "/")
		if err != nil {
			return fmt.Errorf("status page of %s: %w", m.ID, err)
		}
		if mixed := strings.Contains(page, `id="mixed"`); mixed != (len(releases) > 1) {
			return fmt.Errorf("status page of %s shows the mixed-release banner %v, want %v", m.ID, mixed, len(releases) > 1)
		}
	}
	return nil
}

// checkFinalizeRefused asks the leader, of the new build, to finalize the
// upgrade while older runs the old build: it must refuse, naming older.
func checkFinalizeRefused(c *procCluster, older *member, cfg UpgradeConfig) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	leader := c.leader(ctx)
	if leader == nil || leader == older {
		return fmt.Errorf("no leader of the new build to ask for finalizing (leader %v)", leader)
	}
	resp, err := leader.Do(ctx, http.MethodPost, "/v1/upgrade/finalize")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	want := "member " + older.ID + " runs release " + cmp.Or(cfg.OldRelease, buildinfo.Baseline)
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), want) {
		return fmt.Errorf("finalize with %s on the old build = HTTP %d %s, want 409 saying %q", older.ID, resp.StatusCode, b, want)
	}
	return nil
}

// buildOf names the build m runs.
func buildOf(m *member, cfg UpgradeConfig) string {
	if m.Binary == cfg.New {
		return "new build"
	}
	return "old build"
}

// getPage returns the body of GET path on m's admin address.
func getPage(m *member, path string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := m.Get(ctx, path)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: HTTP %d", path, resp.StatusCode)
	}
	return string(b), err
}

// getJSON decodes the answer to GET path on m's admin address into out.
func getJSON(m *member, path string, out any) error {
	page, err := getPage(m, path)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(page), out)
}
