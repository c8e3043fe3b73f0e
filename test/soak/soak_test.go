package soak

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// Flags of the soak; `make soak` sets -soak.duration.
var (
	flagDuration = flag.Duration("soak.duration", 0, "how long to soak; 0 runs no soak (make soak sets it)")
	flagBrokers  = flag.Int("soak.brokers", 1000, "fake brokers, each registering with every member every -soak.heartbeat")
	flagBeat     = flag.Duration("soak.heartbeat", 30*time.Second, "the fake brokers' registration period")
	flagSample   = flag.Duration("soak.sample", 0, "sampling period (default: the duration / 60, at least 2 s)")
	flagTransfer = flag.Duration("soak.transfer", 0, "leader transfer period (default: the duration / 6)")
	flagOut      = flag.String("soak.out", "", "file for the samples as CSV (docs/contributors/plot/soak.go draws them)")
)

// TestSoak_FiguresLevelOff runs the soak and fails on a figure of a member
// that keeps growing (growth.go), a fake broker expired, or a failed
// restart.
func TestSoak_FiguresLevelOff(t *testing.T) {
	if *flagDuration <= 0 {
		t.Skip("the soak runs for minutes to hours; run it with make soak")
	}
	cfg := Config{Duration: *flagDuration, Brokers: *flagBrokers, Heartbeat: *flagBeat,
		SampleEvery: max(*flagDuration/60, 2*time.Second), TransferEvery: *flagDuration / 6}
	if *flagSample > 0 {
		cfg.SampleEvery = *flagSample
	}
	if *flagTransfer > 0 {
		cfg.TransferEvery = *flagTransfer
	}
	bin, err := launch.Build(t.TempDir(), "../../cmd/raftns")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Binary = bin
	if cfg.Dir, err = os.MkdirTemp("", "raftns-soak-"); err != nil {
		t.Fatal(err)
	}
	res, err := Run(cfg)
	if err != nil {
		t.Fatalf("soak: %v (member data and logs kept in %s)", err, cfg.Dir)
	}
	if *flagOut != "" {
		writeSamples(t, *flagOut, res.Samples)
	}
	t.Logf("SOAK %v: %d samples, %d leader transfers, %d restarts, %s; notes %q", cfg.Duration, len(res.Samples),
		res.Transfers, res.Restarts, res.Counts, res.Notes)
	for _, v := range res.Verdicts {
		t.Log(v)
	}
	logFirstAndLast(t, res.Samples)
	if g := res.Growing(); len(g) > 0 || res.Expired > 0 || res.Restarts != 1 {
		t.Fatalf("growing figures %v, %d broker expiry log lines, %d restarts (want 1); member logs in %s", g, res.Expired,
			res.Restarts, cfg.Dir)
	}
	os.RemoveAll(cfg.Dir)
}

func writeSamples(t *testing.T, path string, samples []Sample) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteCSV(f, samples); err != nil {
		t.Fatal(err)
	}
}

// logFirstAndLast logs each member's first and last sample: the start and
// end figures docs/contributors/reliability.md reports.
func logFirstAndLast(t *testing.T, samples []Sample) {
	first, last := map[string]Sample{}, map[string]Sample{}
	for _, s := range samples {
		if _, ok := first[s.Member]; !ok {
			first[s.Member] = s
		}
		last[s.Member] = s
	}
	for id, f := range first {
		l := last[id]
		t.Logf("%s start→end: RSS %.1f→%.1f MiB, goroutines %.0f→%.0f, fds %.0f→%.0f, data dir %.1f→%.1f MiB, snapshots %.0f→%.0f, raft.db %.1f→%.1f MiB",
			id, f.Values[RSS]/(1<<20), l.Values[RSS]/(1<<20), f.Values[Goroutines], l.Values[Goroutines],
			f.Values[OpenFDs], l.Values[OpenFDs], f.Values[DataDir]/(1<<20), l.Values[DataDir]/(1<<20),
			f.Values[Snapshots], l.Values[Snapshots], f.Values[LogBytes]/(1<<20), l.Values[LogBytes]/(1<<20))
	}
}
