//go:build ignore

// Ratios draws the figures of one or more `raftns-bench compare -json`
// reports as an SVG: for every RaftNS figure, its ratio to its ceiling in
// each report against the figure's target. The last report is drawn
// filled, the earlier ones hollow, so the picture shows both the current
// figures and how far they move from run to run.
//
//	bin/raftns-bench compare -rounds 3 -duration 5s -json > run.json
//	go run docs/contributors/plot/ratios.go run1.json run2.json ... > docs/contributors/plot/compare-ratios.svg
//
// With no file arguments it reads the reports from standard input, one JSON
// value after another. Only the standard library is used; the output
// depends on the input alone.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// row is the part of a compare row the plot reads.
type row struct {
	Figure  string  `json:"figure"`
	Clients int     `json:"clients"`
	Ratio   float64 `json:"ratio"`
	Target  float64 `json:"target"`
}

// report is the part of a compare report the plot reads.
type report struct {
	Scenario string `json:"scenario"`
	Env      struct {
		Commit string `json:"commit"`
	} `json:"environment"`
	Results struct {
		Rows []row `json:"rows"`
	} `json:"results"`
}

// shortNames orders the figures and names them briefly.
var shortNames = []struct{ figure, name string }{
	{"RaftNS single member: changed REGISTER_BROKER", "single member, writes"},
	{"RaftNS 3 members: changed REGISTER_BROKER via the leader", "3 members, writes via the leader"},
	{"RaftNS 3 members: changed REGISTER_BROKER via a follower", "3 members, writes via a follower"},
	{"RaftNS 3 members: unchanged REGISTER_BROKER (heartbeat) via a follower", "heartbeats via a follower"},
	{"RaftNS 3 members: GET_ROUTEINFO_BY_TOPIC on that follower", "route reads on a follower"},
}

// line is one figure at one concurrency: its target and its ratio per report.
type line struct {
	label  string
	target float64
	ratios []float64 // NaN where a report lacks the figure
}

func main() {
	reports, err := readReports(os.Args[1:])
	if err == nil && len(reports) == 0 {
		err = errors.New("no compare report in the input")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
	writeSVG(os.Stdout, collect(reports), commits(reports))
}

// readReports decodes every JSON value of the named files (standard input
// when none) and keeps the compare reports.
func readReports(files []string) ([]report, error) {
	var readers []io.Reader
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		readers = append(readers, f)
	}
	if len(files) == 0 {
		readers = append(readers, os.Stdin)
	}
	var out []report
	dec := json.NewDecoder(io.MultiReader(readers...))
	for {
		var r report
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if r.Scenario == "compare" {
			out = append(out, r)
		}
	}
}

// collect makes one line per figure and concurrency that has a target, in
// the order of shortNames and then of the clients.
func collect(reports []report) []line {
	var lines []line
	for _, fig := range shortNames {
		for _, clients := range clientCounts(reports, fig.figure) {
			l := line{label: fmt.Sprintf("%s, %d client%s", fig.name, clients, plural(clients))}
			for _, rep := range reports {
				ratio := math.NaN()
				for _, r := range rep.Results.Rows {
					if r.Figure == fig.figure && r.Clients == clients && r.Target > 0 {
						ratio, l.target = r.Ratio, r.Target
					}
				}
				l.ratios = append(l.ratios, ratio)
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// clientCounts lists, in increasing order, the concurrencies at which any
// report gives figure a ratio.
func clientCounts(reports []report, figure string) []int {
	seen := map[int]bool{}
	var out []int
	for _, rep := range reports {
		for _, r := range rep.Results.Rows {
			if r.Figure == figure && r.Target > 0 && !seen[r.Clients] {
				seen[r.Clients] = true
				out = append(out, r.Clients)
			}
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// commits describes the builds of the reports for the legend, e.g.
// "914d588 ×5, a3f08de".
func commits(reports []report) string {
	var parts []string
	for i := 0; i < len(reports); {
		c := short(reports[i].Env.Commit)
		n := 1
		for i+n < len(reports) && short(reports[i+n].Env.Commit) == c {
			n++
		}
		if n > 1 {
			c += fmt.Sprintf(" ×%d", n)
		}
		parts = append(parts, c)
		i += n
	}
	return strings.Join(parts, ", ")
}

func short(commit string) string {
	if commit == "" {
		return "unknown build"
	}
	return commit[:min(7, len(commit))]
}

// Layout of the picture, in pixels.
const (
	labelWidth = 290
	plotWidth  = 420
	valueWidth = 130
	rowHeight  = 24
	top        = 58
)

// writeSVG draws one row per line: the area below the target shaded, the
// target marked, a hollow dot per earlier report and a filled one for the
// last, and the last ratio written out.
func writeSVG(w io.Writer, lines []line, builds string) {
	lo, hi := axisRange(lines)
	x := func(v float64) float64 { return labelWidth + (v-lo)/(hi-lo)*plotWidth }
	height := top + len(lines)*rowHeight + 40
	width := labelWidth + plotWidth + valueWidth
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(w, `<text x="8" y="18" font-size="14" font-weight="bold">raftns-bench compare: RaftNS as a ratio of its ceiling</text>`+"\n")
	fmt.Fprintf(w, `<text x="8" y="36" fill="#444"><tspan fill="#1f5fa8">●</tspan> last run · <tspan fill="#777">○</tspan> earlier runs · <tspan fill="#c0392b">|</tspan> target (shaded below it) · builds: %s</text>`+"\n", esc(builds))
	fmt.Fprintf(w, `<text x="%d" y="52" fill="#444">last run (target)</text>`+"\n", labelWidth+plotWidth+10)
	for i := range lines {
		if i%2 == 0 {
			fmt.Fprintf(w, `<rect x="0" y="%d" width="%d" height="%d" fill="#f4f4f4"/>`+"\n", top+i*rowHeight, width, rowHeight)
		}
	}
	drawAxis(w, lo, hi, top+len(lines)*rowHeight, x)
	for i, l := range lines {
		y := float64(top + i*rowHeight)
		mid := y + rowHeight/2
		fmt.Fprintf(w, `<rect x="%d" y="%.0f" width="%.1f" height="%d" fill="#c0392b" fill-opacity="0.12"/>`+"\n", labelWidth, y+3, x(l.target)-labelWidth, rowHeight-6)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#c0392b" stroke-width="2"/>`+"\n", x(l.target), y+2, x(l.target), y+rowHeight-2)
		fmt.Fprintf(w, `<text x="8" y="%.0f">%s</text>`+"\n", mid+4, esc(l.label))
		drawDots(w, l, mid, x)
		fmt.Fprintf(w, `<text x="%d" y="%.0f">%s</text>`+"\n", labelWidth+plotWidth+10, mid+4, lastValue(l))
	}
	fmt.Fprintln(w, "</svg>")
}

// drawDots draws the ratio of every report on one row.
func drawDots(w io.Writer, l line, mid float64, x func(float64) float64) {
	last := len(l.ratios) - 1
	for j, v := range l.ratios {
		if math.IsNaN(v) {
			continue
		}
		if j == last {
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="5" fill="#1f5fa8"/>`+"\n", x(v), mid)
		} else {
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="4" fill="none" stroke="#777" stroke-width="1.2"/>`+"\n", x(v), mid)
		}
	}
}

// lastValue is the last report's ratio and the target, e.g. "0.87× (≥ 0.85×)".
func lastValue(l line) string {
	v := l.ratios[len(l.ratios)-1]
	if math.IsNaN(v) {
		return fmt.Sprintf("– (≥ %.2f×)", l.target)
	}
	return fmt.Sprintf("%.2f× (≥ %.2f×)", v, l.target)
}

// drawAxis draws the ratio axis with a grid line every 0.1.
func drawAxis(w io.Writer, lo, hi float64, y int, x func(float64) float64) {
	steps := int(math.Round((hi - lo) * 10))
	for i := 0; i <= steps; i++ {
		t := lo + float64(i)/10
		weight := "#ddd"
		if math.Abs(t-1) < 1e-9 {
			weight = "#888"
		}
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>`+"\n", x(t), top, x(t), y, weight)
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%.1f×</text>`+"\n", x(t), y+16, t)
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle" fill="#444">RaftNS figure ÷ its ceiling (median of the rounds of one run)</text>`+"\n", x((lo+hi)/2), y+34)
}

// axisRange spans every ratio and target, widened to tenths.
func axisRange(lines []line) (lo, hi float64) {
	lo, hi = 1, 1
	for _, l := range lines {
		lo, hi = math.Min(lo, l.target), math.Max(hi, l.target)
		for _, v := range l.ratios {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return math.Floor(lo*10-0.5) / 10, math.Ceil(hi*10+0.5) / 10
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
