package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// newTable returns a writer that aligns tab-separated columns; call Flush.
func newTable(w io.Writer, header ...string) *tabwriter.Writer {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(header) > 0 {
		fmt.Fprintln(tw, strings.Join(header, "\t"))
	}
	return tw
}

// row writes one tab-separated row, each cell made printable.
func row(w io.Writer, cells ...any) {
	for i, c := range cells {
		if i > 0 {
			io.WriteString(w, "\t")
		}
		io.WriteString(w, printable(fmt.Sprint(c)))
	}
	io.WriteString(w, "\n")
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printRaw writes an answer as received, ending with a newline.
func printRaw(w io.Writer, raw []byte) error {
	if _, err := w.Write(raw); err != nil {
		return err
	}
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		_, err := io.WriteString(w, "\n")
		return err
	}
	return nil
}

// yesNo renders a boolean for tables.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// orDash renders an empty cell as "-".
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// lastContact renders lastContactMillis: 0 on the leader itself, -1 when
// the leader was never heard from.
func lastContact(ms int64, isLeader bool) string {
	switch {
	case isLeader && ms == 0:
		return "-"
	case ms < 0:
		return "never"
	default:
		return (time.Duration(ms) * time.Millisecond).String()
	}
}
