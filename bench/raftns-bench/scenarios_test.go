package main

import (
	"testing"
)

// checkSummary fails unless s describes count > 0 ordered latencies.
func checkSummary(t *testing.T, what string, s Summary) {
	t.Helper()
	if s.Count == 0 || s.MinMs <= 0 || s.MinMs > s.P50Ms || s.P50Ms > s.P99Ms || s.P99Ms > s.P999Ms || s.P999Ms > s.MaxMs {
		t.Fatalf("%s latency summary is not a sane distribution: %+v", what, s)
	}
}

// quickExpiry makes a member expire a broker 100ms after its last
// connection closed, so a smoke run that lets its brokers' connections go
// fails.
var quickExpiry = []string{"--conn-close-grace", "100ms", "--scan-interval", "100ms"}

func TestRoute_SmokeAgainstRunningMember(t *testing.T) {
	m := startMember(t, quickExpiry...)
	args := append([]string{"route", "-duration", "1s", "-warmup", "100ms", "-clients", "2", "-brokers", "2", "-topics", "10"}, externalArgs(m)...)
	res := runScenario(t, args...).Results.(routeResults)
	if len(res.Rows) != 1 || res.Topics != 10 || res.BodyBytes == 0 {
		t.Fatalf("results = %+v, want one member row, 10 topics and a route body", res)
	}
	row := res.Rows[0]
	if row.Requests == 0 || row.Errors != 0 || row.OpsPerS <= 0 || row.Clients != 2 {
		t.Fatalf("row = %+v, want requests, no errors, ops/s > 0 and 2 clients", row)
	}
	checkSummary(t, "route", row.Latency)
	if row.CPUSeconds <= 0 || row.QPSPerCore <= 0 {
		t.Fatalf("member CPU = %v s, queries per CPU-second = %v; want both > 0 with -pid", row.CPUSeconds, row.QPSPerCore)
	}
}

func TestRegister_SmokeWritesEachChangedRegistration(t *testing.T) {
	m := startMember(t)
	args := append([]string{"register", "-duration", "1s", "-warmup", "100ms", "-clients", "2", "-topics", "5"}, externalArgs(m)...)
	res := runScenario(t, args...).Results.(registerResults)
	if res.Requests == 0 || res.Errors != 0 || res.OpsPerS <= 0 {
		t.Fatalf("results = %+v, want requests, no errors and ops/s > 0", res)
	}
	checkSummary(t, "register", res.Latency)
	// Every changed registration is one entry; warm-up ones count too.
	if res.LogEntries < int64(res.Requests) || res.Written < float64(res.Requests) {
		t.Fatalf("%d registrations wrote %d entries (%v counted written), want at least one each", res.Requests, res.LogEntries, res.Written)
	}
}

func TestRegister_SmokeUnchangedWritesNothing(t *testing.T) {
	m := startMember(t)
	args := append([]string{"register", "-unchanged", "-duration", "1s", "-warmup", "100ms", "-clients", "2", "-topics", "5"}, externalArgs(m)...)
	res := runScenario(t, args...).Results.(registerResults)
	if res.Requests == 0 || res.Errors != 0 {
		t.Fatalf("results = %+v, want requests and no errors", res)
	}
	checkSummary(t, "heartbeat", res.Latency)
	if res.LogEntries != 0 || res.Written != 0 || res.Deduped < float64(res.Requests) {
		t.Fatalf("%d unchanged registrations: %d entries, %v written, %v deduplicated; want 0, 0, all", res.Requests, res.LogEntries, res.Written, res.Deduped)
	}
}

func TestFailover_SmokeOneRound(t *testing.T) {
	args := []string{"failover", "-raftns", raftnsBin, "-workdir", t.TempDir(), "-rounds", "1", "-writers", "2", "-settle", "200ms"}
	res := runScenario(t, args...).Results.(failoverResults)
	if len(res.Rounds) != 1 {
		t.Fatalf("rounds = %+v, want one", res.Rounds)
	}
	r := res.Rounds[0]
	if r.Killed == "" || r.NewLeader == "" || r.Killed == r.NewLeader || r.Via == r.Killed {
		t.Fatalf("round = %+v: want the killed leader replaced and writes through another member", r)
	}
	if r.FirstWriteMs <= 0 || r.LeaderMs <= 0 || r.ReadyMs < r.LeaderMs || r.RejoinMs <= 0 || r.WritesBefore == 0 {
		t.Fatalf("round = %+v: want positive times, survivors ready no earlier than the leader, writes before the kill", r)
	}
	if res.FirstWrite.MinMs != r.FirstWriteMs || res.FirstWrite.MaxMs != r.FirstWriteMs {
		t.Fatalf("summary %+v does not match the single round %+v", res.FirstWrite, r)
	}
}

func TestExpiry_SmokeExpiresSilentBrokersOnly(t *testing.T) {
	m := startMember(t, "--broker-expiry", "1s", "--scan-interval", "100ms")
	args := append([]string{"expiry", "-broker-expiry", "1s", "-scan-interval", "100ms", "-brokers", "3", "-live", "7", "-heartbeat", "200ms",
		"-warm", "500ms", "-poll", "20ms"}, externalArgs(m)...)
	res := runScenario(t, args...).Results.(expiryResults)
	if res.Silenced != 3 || res.Expired != 3 {
		t.Fatalf("%d of %d silenced brokers expired, want all 3", res.Expired, res.Silenced)
	}
	if len(res.LiveLost) != 0 {
		t.Fatalf("heartbeating brokers disappeared: %v", res.LiveLost)
	}
	// A broker must not go before the expiry has passed since its last
	// heartbeat.
	if res.Early != 0 || res.Latency.MinMs < 1000 || res.Overshoot.MinMs < 0 {
		t.Fatalf("early = %d, latency %+v: a broker expired before 1s of silence", res.Early, res.Latency)
	}
	checkSummary(t, "expiry", res.Latency)
}

func TestLarge_SmokeStartedMember(t *testing.T) {
	args := []string{"large", "-raftns", raftnsBin, "-workdir", t.TempDir(), "-sizes", "100,2000", "-heartbeats", "2"}
	rows := runScenario(t, args...).Results.([]largeRow)
	if len(rows) != 2 {
		t.Fatalf("rows = %+v, want two", rows)
	}
	for _, r := range rows {
		if r.PlainBytes <= r.CompressedBytes || r.EntryBytes <= 0 || r.RawEntryBytes < r.EntryBytes || r.RegisterMs <= 0 {
			t.Fatalf("row = %+v: want plain > compressed body, an entry no larger than its uncompressed form, a latency", r)
		}
		checkSummary(t, "unchanged re-registration", r.Heartbeat)
		if r.LogEntries == nil || *r.LogEntries != 1 {
			t.Fatalf("topics %d: log entries = %v, want exactly one per registration", r.Topics, r.LogEntries)
		}
		if r.DataDirGrowth == nil || r.RSSBytes == nil || *r.RSSBytes <= 0 {
			t.Fatalf("topics %d: data dir growth %v, RSS %v: want both known for a started member", r.Topics, r.DataDirGrowth, r.RSSBytes)
		}
	}
	if rows[1].PlainBytes <= rows[0].PlainBytes {
		t.Fatalf("2000 topics (%d bytes) not larger than 100 (%d bytes)", rows[1].PlainBytes, rows[0].PlainBytes)
	}
}

func TestMemory_SmokeRunningMember(t *testing.T) {
	m := startMember(t, quickExpiry...)
	args := append([]string{"memory", "-shapes", "20x10,10x50", "-settle", "500ms"}, externalArgs(m)...)
	rows := runScenario(t, args...).Results.([]memoryRow)
	if len(rows) != 2 {
		t.Fatalf("rows = %+v, want two", rows)
	}
	for _, r := range rows {
		if r.RSSBefore == nil || r.RSSAfter == nil || *r.RSSAfter <= 0 || r.HeapInuse == nil || *r.HeapInuse <= 0 {
			t.Fatalf("shape %s: RSS %v -> %v, heap %v: want all known with -pid and -http", r.Shape, r.RSSBefore, r.RSSAfter, r.HeapInuse)
		}
		if r.EntryBytes <= 0 || r.LogEntries == nil || r.DataDir != nil {
			t.Fatalf("shape %s: entry %d, last index %v, data dir %v: want an entry size, an index, no data dir (not started by the tool)", r.Shape, r.EntryBytes, r.LogEntries, r.DataDir)
		}
	}
	// The brokers were still registered when memory was read, and the
	// second shape accumulates on the same member.
	if rows[0].Registered != 20 || rows[1].Registered != 30 {
		t.Fatalf("registered brokers %d then %d, want 20 then 30", rows[0].Registered, rows[1].Registered)
	}
	if *rows[1].LogEntries < *rows[0].LogEntries+10 {
		t.Fatalf("last index %d then %d, want at least 10 more entries for 10 brokers", *rows[0].LogEntries, *rows[1].LogEntries)
	}
}

func TestExpiry_SmokeClosedConnectionsExpireAfterTheGrace(t *testing.T) {
	m := startMember(t, "--broker-expiry", "30s", "--conn-close-grace", "200ms", "--scan-interval", "100ms")
	args := append([]string{"expiry", "-close-conns", "-broker-expiry", "30s", "-brokers", "3", "-live", "7", "-heartbeat", "200ms",
		"-warm", "500ms", "-poll", "20ms"}, externalArgs(m)...)
	res := runScenario(t, args...).Results.(expiryResults)
	if res.Expired != 3 || len(res.LiveLost) != 0 {
		t.Fatalf("%d of 3 silenced brokers expired, live lost %v; want 3 and none", res.Expired, res.LiveLost)
	}
	// Far below the 30s expiry: the close, not the silence, removed them.
	if res.SinceClose == nil || res.SinceClose.MaxMs >= 10000 {
		t.Fatalf("close -> gone = %+v, want well under the 30s expiry", res.SinceClose)
	}
}

// Two rounds: the second runs the figures in reverse order.
func TestCompare_SmokeTwoRoundsGiveEveryRatio(t *testing.T) {
	args := []string{"compare", "-raftns", raftnsBin, "-workdir", t.TempDir(), "-rounds", "2",
		"-duration", "1s", "-warmup", "200ms", "-write-clients", "2", "-read-clients", "1,2"}
	res := runScenario(t, args...).Results.(compareResults)
	// 6 write figures at one concurrency and 2 read figures at two.
	if len(res.Rows) != 6+2*2 {
		t.Fatalf("rows = %d, want 10: %+v", len(res.Rows), res.Rows)
	}
	ratios := 0
	for _, row := range res.Rows {
		if len(row.Rounds) != 2 || row.Median <= 0 || row.Errors != 0 {
			t.Fatalf("row %+v: want two rounds with ops/s > 0 and no errors", row)
		}
		if row.Ceiling != "" {
			ratios++
			if row.Ratio <= 0 {
				t.Fatalf("row %+v has a ceiling but no ratio", row)
			}
		}
	}
	// single, leader, follower, heartbeat at c=2; route at c=1 and c=2.
	if ratios != 6 {
		t.Fatalf("%d ratios, want 6", ratios)
	}
	if res.HeartbeatLogEntries != 0 {
		t.Fatalf("heartbeats wrote %d log entries, want 0", res.HeartbeatLogEntries)
	}
}
