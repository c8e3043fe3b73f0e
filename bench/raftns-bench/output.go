package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the outcome of one scenario run: what was run, the typed
// results (for -json) and the tables printed for people.
type Report struct {
	Scenario string      `json:"scenario"`
	Started  time.Time   `json:"started"`
	Env      Environment `json:"environment"`
	Settings any         `json:"settings"`
	Members  []string    `json:"members"`
	Results  any         `json:"results"`
	Notes    []string    `json:"notes,omitempty"`
	Tables   []Table     `json:"-"`
}

// notef appends a note printed under the tables.
func (r *Report) notef(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// show sets the results and appends the tables.
func (r *Report) show(results any, tables ...Table) {
	r.Results = results
	r.Tables = append(r.Tables, tables...)
}

// Table is a titled grid of cells.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
}

// add appends a row; cells are formatted with cell.
func (t *Table) add(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = cell(c)
	}
	t.Rows = append(t.Rows, row)
}

// cell formats one value: floats with at most two decimals, durations in
// milliseconds.
func cell(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		switch {
		case x >= 100:
			return strconv.FormatFloat(x, 'f', 0, 64)
		case x >= 10:
			return strconv.FormatFloat(x, 'f', 1, 64)
		default:
			return strconv.FormatFloat(x, 'f', 2, 64)
		}
	case time.Duration:
		return cell(ms(x))
	default:
		return fmt.Sprint(v)
	}
}

// writeText prints the tables and notes, aligned in columns.
func (r *Report) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "# %s  (%s, %d CPUs, %s, load average %s at start, %s at end)\n", r.Scenario,
		r.Started.Format(time.RFC3339), r.Env.NumCPU, r.Env.GoVersion, r.Env.LoadStart, r.Env.LoadEnd)
	for _, m := range r.Members {
		fmt.Fprintf(tw, "# member %s\n", m)
	}
	for _, t := range r.Tables {
		fmt.Fprintf(tw, "\n## %s\n", t.Title)
		fmt.Fprintln(tw, strings.Join(t.Columns, "\t")+"\t")
		for _, row := range t.Rows {
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(tw, "note: %s\n", n)
	}
	return tw.Flush()
}

// writeJSON prints the report as one indented JSON document.
func (r *Report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// sizeCell formats a byte count in B, KiB or MiB.
func sizeCell(b int64) string {
	switch {
	case b >= 10<<20 || b <= -10<<20:
		return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
	case b >= 1<<20 || b <= -1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 10<<10 || b <= -10<<10:
		return fmt.Sprintf("%.0f KiB", float64(b)/(1<<10))
	case b >= 1<<10 || b <= -1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

func perPair(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f B", v)
}

func ptrSize(v *int64) string {
	if v == nil {
		return "-"
	}
	return sizeCell(*v)
}

func ptrInt(v *int64) any {
	if v == nil {
		return "-"
	}
	return *v
}

// orDash formats 0 as "-" (unknown).
func orDash(v float64) any {
	if v == 0 {
		return "-"
	}
	return v
}
