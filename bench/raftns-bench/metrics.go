package main

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
)

// parseMetrics reads the unlabelled samples of a Prometheus text exposition
// ("name value" lines); comments, labelled samples and lines that do not
// parse are skipped.
func parseMetrics(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || strings.ContainsRune(line, '{') {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if v, err := strconv.ParseFloat(f[1], 64); err == nil {
			out[f[0]] = v
		}
	}
	return out, sc.Err()
}

// sumMetric adds a metric over several scrapes; absent samples count 0.
func sumMetric(scrapes []map[string]float64, name string) float64 {
	var total float64
	for _, s := range scrapes {
		total += s[name]
	}
	return total
}

// counters is a reading of the cluster's write counters.
type counters struct {
	known            bool
	lastIndex        uint64
	written, deduped float64
}

// snapshotCounters reads the leader's last index and the registration
// counters summed over the members; known is false without admin access.
func (e *env) snapshotCounters(ctx context.Context) counters {
	if !e.hasHTTP() {
		return counters{}
	}
	var c counters
	var scrapes []map[string]float64
	for _, m := range e.members {
		if m.Exited() {
			continue
		}
		if st, err := m.Status(ctx); err == nil && st.LastIndex > c.lastIndex {
			c.lastIndex, c.known = st.LastIndex, true
		}
		if mt, err := m.metrics(ctx); err == nil {
			scrapes = append(scrapes, mt)
		}
	}
	c.written = sumMetric(scrapes, "ns_register_written_total")
	c.deduped = sumMetric(scrapes, "ns_register_deduped_total")
	return c
}
