package chaos

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// Flags of the chaos test; `make chaos` sets them for the long campaign.
// The default is the short seeded run of `make test`.
var (
	flagSeed      = flag.Uint64("chaos.seed", 1, "seed of the first run (fault schedule and every client's choices)")
	flagRuns      = flag.Int("chaos.runs", 1, "runs per member count, with seeds seed, seed+1, …")
	flagDuration  = flag.Duration("chaos.duration", 30*time.Second, "how long each run injects faults")
	flagMembers   = flag.String("chaos.members", "3,5", "member counts, comma-separated")
	flagClients   = flag.Int("chaos.clients", 6, "concurrent clients")
	flagFaults    = flag.String("chaos.faults", "", "fault kinds, comma-separated (default: all)")
	flagBinary    = flag.String("chaos.binary", "", "a prebuilt raftns (default: build one)")
	flagNonVoters = flag.Int("chaos.nonvoters", 2, "non-voters added to the runs of TestChaos_NonVotersNeverLead")
	flagOut       = flag.String("chaos.out", "", "directory for a failing run's history, visualization and logs (default: $TMPDIR/raftns-chaos)")
)

// TestChaos_HistoriesAreLinearizable runs real raftns processes under the
// nemesis and checks every run's history (docs/contributors/reliability.md).
func TestChaos_HistoriesAreLinearizable(t *testing.T) {
	bin := *flagBinary
	if bin == "" {
		dir := t.TempDir()
		var err error
		if bin, err = launch.Build(dir, "../../cmd/raftns"); err != nil {
			t.Fatal(err)
		}
	}
	out := *flagOut
	if out == "" {
		out = filepath.Join(os.TempDir(), "raftns-chaos")
	}
	faults := faultKinds(t)
	for _, ms := range strings.Split(*flagMembers, ",") {
		members, err := strconv.Atoi(strings.TrimSpace(ms))
		if err != nil || members < 1 {
			t.Fatalf("bad -chaos.members %q", *flagMembers)
		}
		for i := range *flagRuns {
			seed := *flagSeed + uint64(i)
			t.Run(fmt.Sprintf("%d members seed %d", members, seed), func(t *testing.T) {
				runOnce(t, Config{Binary: bin, OutDir: out, Seed: seed, Members: members, Clients: *flagClients,
					Duration: *flagDuration, Faults: faults})
			})
		}
	}
}

// TestChaos_NonVotersNeverLead adds non-voters to a three-member cluster
// and runs the nemesis over all of them (their kills and pauses included):
// the history must stay linearizable and no non-voter may ever say it
// leads or stands for election.
func TestChaos_NonVotersNeverLead(t *testing.T) {
	bin := *flagBinary
	if bin == "" {
		var err error
		if bin, err = launch.Build(t.TempDir(), "../../cmd/raftns"); err != nil {
			t.Fatal(err)
		}
	}
	out := *flagOut
	if out == "" {
		out = filepath.Join(os.TempDir(), "raftns-chaos")
	}
	faults := faultKinds(t)
	for i := range *flagRuns {
		seed := *flagSeed + uint64(i)
		t.Run(fmt.Sprintf("3 members %d non-voters seed %d", *flagNonVoters, seed), func(t *testing.T) {
			runOnce(t, Config{Binary: bin, OutDir: out, Seed: seed, Members: 3, NonVoters: *flagNonVoters,
				Clients: *flagClients, Duration: *flagDuration, Faults: faults})
		})
	}
}

func runOnce(t *testing.T, cfg Config) {
	dir, err := os.MkdirTemp("", "raftns-chaos-run-")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dir = dir
	replay := fmt.Sprintf("go test ./test/chaos -run 'TestChaos' -timeout 30m -args -chaos.seed=%d -chaos.members=%d -chaos.duration=%v -chaos.clients=%d -chaos.faults=%s",
		cfg.Seed, cfg.Members, cfg.Duration, cfg.Clients, strings.Join(cfg.Faults, ","))
	if cfg.NonVoters > 0 {
		replay = fmt.Sprintf("go test ./test/chaos -run 'TestChaos_NonVotersNeverLead' -timeout 30m -args -chaos.seed=%d -chaos.nonvoters=%d -chaos.duration=%v -chaos.clients=%d -chaos.faults=%s",
			cfg.Seed, cfg.NonVoters, cfg.Duration, cfg.Clients, strings.Join(cfg.Faults, ","))
	}
	res, err := Run(cfg)
	if err != nil {
		t.Errorf("run: %v (member data and logs kept in %s)", err, dir)
		return
	}
	t.Logf("CHAOS %s", res)
	if !res.OK() {
		t.Errorf("seed %d: check %s, %d acknowledged writes lost, %d live brokers expired, %d non-voter statuses leading; history and visualization: %v; member logs: %s; replay: %s",
			cfg.Seed, res.Check, res.LostAcked, res.LiveExpired, res.NonVoterLed, res.Artifacts, dir, replay)
		return
	}
	os.RemoveAll(dir)
}

// faultKinds returns the requested kinds. By default every kind; the
// disk-full fault needs to mount a tmpfs (root), and where it cannot it is
// left out of the default set with a note in the log. Asked for by name it
// must be available.
func faultKinds(t *testing.T) []string {
	if *flagFaults != "" {
		return strings.Split(*flagFaults, ",")
	}
	probe := t.TempDir()
	d, err := mountSmallDisk(filepath.Join(probe, "probe"), 1<<20)
	if err != nil {
		t.Logf("disk-full fault unavailable here, running the others: %v", err)
		return []string{FaultKill, FaultPause, FaultPartition, FaultMembership}
	}
	if err := d.unmount(); err != nil {
		t.Fatal(err)
	}
	return AllFaults
}
