package main

import (
	"fmt"
	"slices"
)

// scaleTargetCheck is one of the targets RaftNS must meet at scale.
// applies, when set, says whether the target system has the figure at all.
type scaleTargetCheck struct {
	name, want string
	met        func(r scaleResult) bool
	applies    func(r scaleResult) bool
}

// hasSnapshot: a reference NameServer keeps no snapshot.
func hasSnapshot(r scaleResult) bool { return r.Snapshot != nil }

var scaleChecks = []scaleTargetCheck{
	{"RSS per member", "≤ 1 GiB", func(r scaleResult) bool {
		return slices.IndexFunc(r.Servers, func(s scaleServerResult) bool { return s.RSSBytes == nil || *s.RSSBytes > 1<<30 }) < 0
	}, nil},
	{"snapshot persist", "≤ 5 s", func(r scaleResult) bool { return r.Snapshot.PersistMs <= 5000 }, hasSnapshot},
	{"snapshot restore", "≤ 5 s", func(r scaleResult) bool { ms, _ := r.restoreMs(); return ms <= 5000 }, hasSnapshot},
	{"steady heartbeats, CPU per member", "≤ 10 % of a core", func(r scaleResult) bool {
		return slices.IndexFunc(r.Servers, func(s scaleServerResult) bool { return s.CPUPerSecond > 0.10 }) < 0
	}, nil},
	{"failed registrations in the storm", "0", func(r scaleResult) bool { return r.Storm.FailedRegistrations == 0 }, nil},
	{"brokers not routable within 60 s of their start", "0", func(r scaleResult) bool { return r.Storm.LateOver60s == 0 }, nil},
	{"route reads during the storm", "≥ 0.8× idle", func(r scaleResult) bool { return r.ReadRatio >= 0.8 }, nil},
}

// restoreMs is the restarted member's own snapshot restore when it
// restored one, else the restore of the leader's snapshot in this process.
func (r scaleResult) restoreMs() (float64, bool) {
	if r.Restart.RestoreMs != nil {
		return *r.Restart.RestoreMs, true
	}
	if r.Snapshot != nil {
		return r.Snapshot.LocalRestoreMs, true
	}
	return 0, false
}

func (s *scaleScenario) tables(res scaleResults) []Table {
	return []Table{s.sideBySide(res), s.serverTable(res), s.targetTable(res)}
}

// sideBySide has one row per measure and one column per target.
func (s *scaleScenario) sideBySide(res scaleResults) Table {
	t := Table{Title: fmt.Sprintf("%s, %d queue datas, %v heartbeats", s.scaleShape, res.QueueDatas, s.Heartbeat),
		Columns: []string{"measure"}}
	for _, r := range res.Targets {
		t.Columns = append(t.Columns, r.Target)
	}
	row := func(name string, f func(r scaleResult) string) {
		cells := []any{name}
		for _, r := range res.Targets {
			cells = append(cells, f(r))
		}
		t.add(cells...)
	}
	row("time to full registration", func(r scaleResult) string { return fmt.Sprintf("%.1f s", r.FillSeconds) })
	row("failed registrations while filling", func(r scaleResult) string { return fmt.Sprint(r.FillFailed) })
	row("RSS per server", func(r scaleResult) string { return r.spread(func(v scaleServerResult) *int64 { return v.RSSBytes }) })
	row("heap in use per server", func(r scaleResult) string { return r.spread(func(v scaleServerResult) *int64 { return v.HeapBytes }) })
	row("CPU per second of steady heartbeats, per server", func(r scaleResult) string {
		return cpuSpread(r.Servers) + fmt.Sprintf(" (%d heartbeats, %d failed)", r.SteadyBeats.Sent, r.SteadyBeats.Failed)
	})
	row("GET_ALL_TOPIC_LIST_FROM_NAMESERVER", func(r scaleResult) string {
		return answerCell(r.Servers, func(v scaleServerResult) answerFigure { return v.TopicList })
	})
	row("GET_BROKER_CLUSTER_INFO", func(r scaleResult) string {
		return answerCell(r.Servers, func(v scaleServerResult) answerFigure { return v.ClusterInfo })
	})
	row("snapshot: size, take (persist), restore here", snapshotCell)
	row("restart of one server: answers after", func(r scaleResult) string {
		return fmt.Sprintf("%.2f s (%s)", r.Restart.AnswersMs/1000, r.Restart.Server)
	})
	row("restart: lists every broker after", func(r scaleResult) string { return fmt.Sprintf("%.2f s", r.Restart.CompleteMs/1000) })
	row("restart: its snapshot restore", func(r scaleResult) string {
		if r.Restart.RestoreMs == nil {
			return "-"
		}
		return fmt.Sprintf("%.0f ms", *r.Restart.RestoreMs)
	})
	offered := "as fast as answered"
	if s.ReadRate > 0 {
		offered = fmt.Sprintf("%.0f/s offered", s.ReadRate)
	}
	row("route reads, idle ("+offered+")", func(r scaleResult) string { return readsCell(r.Idle) })
	row("route reads, during the storm", func(r scaleResult) string { return readsCell(r.StormReads) + fmt.Sprintf(", %.2f× idle", r.ReadRatio) })
	row("storm: failed registrations (unregistrations)", func(r scaleResult) string {
		return fmt.Sprintf("%d (%d)", r.Storm.FailedRegistrations, r.Storm.FailedUnregisters)
	})
	row(fmt.Sprintf("storm: brokers missing > %v / not routable within 60 s", s.Heartbeat), func(r scaleResult) string {
		return fmt.Sprintf("%d / %d", r.Storm.MissingOverPeriod, r.Storm.LateOver60s)
	})
	row("storm: start → routable everywhere, p50 / p99 / max", func(r scaleResult) string {
		return fmt.Sprintf("%s / %s / %s ms", cell(r.Storm.Routable.P50Ms), cell(r.Storm.Routable.P99Ms), cell(r.Storm.Routable.MaxMs))
	})
	row("storm: round took", func(r scaleResult) string { return fmt.Sprintf("%.1f s", r.Storm.RoundSeconds) })
	row("leader before → after the storm", func(r scaleResult) string {
		if r.LeaderBefore == "" {
			return "-"
		}
		return r.LeaderBefore + " → " + r.LeaderAfter
	})
	return t
}

// serverTable has one row per server.
func (s *scaleScenario) serverTable(res scaleResults) Table {
	t := Table{Title: "per server, after the fill and the steady window",
		Columns: []string{"target", "server", "RSS", "heap in use", "CPU/s steady", "topic list ms", "topic list bytes", "cluster info ms", "cluster info bytes"}}
	for _, r := range res.Targets {
		for _, v := range r.Servers {
			t.add(r.Target, v.ID, ptrSize(v.RSSBytes), ptrSize(v.HeapBytes), fmt.Sprintf("%.3f", v.CPUPerSecond),
				v.TopicList.Ms, v.TopicList.Bytes, v.ClusterInfo.Ms, v.ClusterInfo.Bytes)
		}
	}
	return t
}

// targetTable says which targets each target system meets.
func (s *scaleScenario) targetTable(res scaleResults) Table {
	t := Table{Title: "targets", Columns: []string{"target", "want"}}
	for _, r := range res.Targets {
		t.Columns = append(t.Columns, r.Target)
	}
	for _, c := range scaleChecks {
		cells := []any{c.name, c.want}
		for _, r := range res.Targets {
			switch {
			case c.applies != nil && !c.applies(r):
				cells = append(cells, "n/a")
			case c.met(r):
				cells = append(cells, "met")
			default:
				cells = append(cells, "NOT met")
			}
		}
		t.add(cells...)
	}
	return t
}

// spread formats a per-server byte figure as min–max.
func (r scaleResult) spread(get func(scaleServerResult) *int64) string {
	var vs []int64
	for _, v := range r.Servers {
		if p := get(v); p != nil {
			vs = append(vs, *p)
		}
	}
	if len(vs) == 0 {
		return "-"
	}
	return sizeCell(slices.Min(vs)) + " – " + sizeCell(slices.Max(vs))
}

func cpuSpread(servers []scaleServerResult) string {
	var vs []float64
	for _, v := range servers {
		vs = append(vs, v.CPUPerSecond*100)
	}
	if len(vs) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f – %.1f %%", slices.Min(vs), slices.Max(vs))
}

// answerCell is the slowest server's time and the answer's size, and the
// requests that failed on any server.
func answerCell(servers []scaleServerResult, get func(scaleServerResult) answerFigure) string {
	var worst answerFigure
	failed := 0
	for _, v := range servers {
		a := get(v)
		failed += a.Failed
		if a.Ms >= worst.Ms {
			worst = a
		}
	}
	out := fmt.Sprintf("%s ms (slowest server), %s", cell(worst.Ms), sizeCell(int64(worst.Bytes)))
	if failed > 0 {
		out += fmt.Sprintf(", %d requests failed", failed)
	}
	return out
}

func snapshotCell(r scaleResult) string {
	if r.Snapshot == nil {
		return "none (state is rebuilt from registrations)"
	}
	sn := r.Snapshot
	return fmt.Sprintf("%s, %.0f ms (%.0f ms), %.0f ms", sizeCell(sn.Bytes), sn.TakeMs, sn.PersistMs, sn.LocalRestoreMs)
}

func readsCell(rd scaleReads) string {
	return fmt.Sprintf("%.0f/s (p50 %s ms, p99 %s ms, %d errors)", rd.OpsPerS, cell(rd.P50Ms), cell(rd.P99Ms), rd.Errors)
}

func (s *scaleScenario) notes(r *Report, res scaleResults) {
	r.notef("the targets ran one after the other with the same fleet, so that they never shared the CPUs; the fleet and the readers run in this process on the same machine")
	r.notef("storm: in one heartbeat round every broker unregisters from every name server and registers again with a new DataVersion; a broker is back on a name server when a registration sent after its restart is answered with success there")
	r.notef("snapshot take/persist are the leader's raft_snapshot_takeSnapshot/raft_snapshot_persist for the snapshot GET /v1/snapshot took; 'restore here' is fsm.Restore of those bytes in this process")
	for _, t := range res.Targets {
		if t.Error != "" {
			r.notef("%s: MEASUREMENTS ENDED EARLY (later figures are zero): %s", t.Target, t.Error)
		}
		if t.FillFirstError != "" {
			r.notef("%s: first failed registration while filling: %s", t.Target, t.FillFirstError)
		}
		if t.Storm.FirstError != "" {
			r.notef("%s: first failure in the storm: %s", t.Target, t.Storm.FirstError)
		}
		for _, sv := range t.Servers {
			for _, a := range []answerFigure{sv.TopicList, sv.ClusterInfo} {
				if a.Error != "" {
					r.notef("%s: %s: %d whole-table requests failed, last: %s", t.Target, sv.ID, a.Failed, a.Error)
				}
			}
		}
		for _, rd := range []scaleReads{t.Idle, t.StormReads} {
			if rd.FirstError != "" {
				r.notef("%s: first failed route read: %s", t.Target, rd.FirstError)
			}
		}
	}
}
