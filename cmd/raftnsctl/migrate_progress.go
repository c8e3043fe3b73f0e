package main

import (
	"fmt"
	"io"
	"os"
)

// progress returns a progress printer for label on stderr when stderr is
// a terminal, and nil otherwise (a pipe or a file gets no progress lines).
func (a *app) progress(label string) func(stage string, done, total int) {
	f, ok := a.stderr.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return progressPrinter(f, label)
}

// progressPrinter rewrites one line of w with "label: stage done/total"
// and clears it when a stage is complete.
func progressPrinter(w io.Writer, label string) func(stage string, done, total int) {
	return func(stage string, done, total int) {
		if done >= total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		fmt.Fprintf(w, "\r\033[K%s: %s %d/%d", label, stage, done, total)
	}
}
