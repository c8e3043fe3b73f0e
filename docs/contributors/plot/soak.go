//go:build ignore

// Soak draws the samples of a soak (`make soak`, the CSV it writes to
// SOAK_OUT) as an SVG: one panel per figure — resident memory, goroutines,
// open file descriptors, data-dir size, snapshot count, raft.db size —
// with one line per member over the run's minutes.
//
//	make soak SOAK_DURATION=60m SOAK_OUT=soak-out/samples.csv
//	go run docs/contributors/plot/soak.go soak-out/samples.csv > docs/contributors/plot/soak.svg
//
// Only the standard library is used; the output depends on the input
// alone.
package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// panel is one figure: its CSV column, title and unit divisor.
type panel struct {
	column, title string
	scale         float64
}

var panels = []panel{
	{"rss_bytes", "resident memory (MiB)", 1 << 20},
	{"goroutines", "goroutines", 1},
	{"open_fds", "open file descriptors", 1},
	{"datadir_bytes", "data dir (MiB)", 1 << 20},
	{"snapshots", "snapshots kept", 1},
	{"log_bytes", "raft.db (MiB)", 1 << 20},
}

var colors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"}

// series is one member's values of every column over time (minutes).
type series struct {
	minutes []float64
	values  map[string][]float64
}

func main() {
	in := io.Reader(os.Stdin)
	if len(os.Args) > 1 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fail(err)
		}
		defer f.Close()
		in = f
	}
	members, err := read(in)
	if err != nil {
		fail(err)
	}
	writeSVG(os.Stdout, members)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "soak:", err)
	os.Exit(1)
}

// read parses the samples file into one series per member.
func read(in io.Reader) (map[string]*series, error) {
	rows, err := csv.NewReader(in).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("no samples")
	}
	header := rows[0]
	out := map[string]*series{}
	for _, r := range rows[1:] {
		if len(r) != len(header) {
			return nil, fmt.Errorf("row %v has %d fields, want %d", r, len(r), len(header))
		}
		s := out[r[1]]
		if s == nil {
			s = &series{values: map[string][]float64{}}
			out[r[1]] = s
		}
		sec, err := strconv.ParseFloat(r[0], 64)
		if err != nil {
			return nil, err
		}
		s.minutes = append(s.minutes, sec/60)
		for i := 2; i < len(r); i++ {
			v, err := strconv.ParseFloat(r[i], 64)
			if err != nil {
				return nil, err
			}
			s.values[header[i]] = append(s.values[header[i]], v)
		}
	}
	return out, nil
}

const (
	panelW, panelH = 420, 190
	marginL        = 56
	marginT        = 28
	gap            = 34
	cols           = 2
)

func writeSVG(w io.Writer, members map[string]*series) {
	var ids []string
	maxMin := 0.0
	for id, s := range members {
		ids = append(ids, id)
		maxMin = math.Max(maxMin, s.minutes[len(s.minutes)-1])
	}
	sort.Strings(ids)
	rows := (len(panels) + cols - 1) / cols
	width := cols*(marginL+panelW) + gap
	height := rows*(marginT+panelH+gap) + 40
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	for i, p := range panels {
		x0 := i%cols*(marginL+panelW+gap/2) + marginL
		y0 := i/cols*(marginT+panelH+gap) + marginT
		drawPanel(w, p, members, ids, maxMin, x0, y0)
	}
	for i, id := range ids {
		x := marginL + i*90
		y := height - 14
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/><text x="%d" y="%d">%s</text>`+"\n",
			x, y-4, x+20, y-4, colors[i%len(colors)], x+25, y, id)
	}
	fmt.Fprintf(w, `<text x="%d" y="%d">minutes</text>`+"\n", width-80, height-14)
	fmt.Fprintln(w, "</svg>")
}

func drawPanel(w io.Writer, p panel, members map[string]*series, ids []string, maxMin float64, x0, y0 int) {
	top := 0.0
	for _, id := range ids {
		for _, v := range members[id].values[p.column] {
			top = math.Max(top, v/p.scale)
		}
	}
	top = niceCeil(top)
	fmt.Fprintf(w, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", x0, y0-8, p.title)
	fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>`+"\n", x0, y0, panelW, panelH)
	for k := 0; k <= 4; k++ {
		y := y0 + panelH - k*panelH/4
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#eee"/><text x="%d" y="%d" text-anchor="end">%s</text>`+"\n",
			x0, y, x0+panelW, y, x0-4, y+4, label(top*float64(k)/4))
	}
	for k := 0; k <= 4; k++ {
		x := x0 + k*panelW/4
		fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", x, y0+panelH+13, label(maxMin*float64(k)/4))
	}
	for i, id := range ids {
		s := members[id]
		var pts []string
		for j, m := range s.minutes {
			x := float64(x0) + m/maxMin*panelW
			y := float64(y0+panelH) - s.values[p.column][j]/p.scale/top*panelH
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		}
		fmt.Fprintf(w, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", colors[i%len(colors)], strings.Join(pts, " "))
	}
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func label(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
