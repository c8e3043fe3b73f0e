package main

import (
	"fmt"
	"sort"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/snapshots"
)

// recordName names a snapshot record type (state.RecordTypeName); a type
// this release does not know, written by a newer one, prints by number.
func recordName(t uint8) string {
	if n, ok := state.RecordTypeName(t); ok {
		return n
	}
	return fmt.Sprintf("type-%d (unknown to this release)", t)
}

// summaryJSON is the -o json shape of a snapshot summary.
type summaryJSON struct {
	Action       string        `json:"action"`
	File         string        `json:"file"`
	Bytes        int64         `json:"bytes"`
	Version      uint16        `json:"version"`
	ChecksumOK   bool          `json:"checksumOk"`
	TotalRecords int           `json:"totalRecords"`
	PayloadBytes int64         `json:"payloadBytes"`
	Records      []recordCount `json:"records"`
	Error        string        `json:"error,omitempty"`
}

// recordCount is the number of records of one type.
type recordCount struct {
	Type  uint8  `json:"type"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func newSummaryJSON(action, file string, size int64, s snapshots.Summary, err error) summaryJSON {
	out := summaryJSON{
		Action: action, File: file, Bytes: size, Version: s.Version, ChecksumOK: s.ChecksumOK,
		TotalRecords: s.TotalRecords, PayloadBytes: s.PayloadBytes, Records: []recordCount{},
	}
	types := make([]int, 0, len(s.Records))
	for t := range s.Records {
		types = append(types, int(t))
	}
	sort.Ints(types)
	for _, t := range types {
		out.Records = append(out.Records, recordCount{Type: uint8(t), Name: recordName(uint8(t)), Count: s.Records[uint8(t)]})
	}
	if err != nil {
		out.Error = err.Error()
	}
	return out
}

// printSummary renders what a snapshot command did with file; err is the
// verification error of a damaged file, if any.
func (a *app) printSummary(action, file string, size int64, s snapshots.Summary, err error) error {
	sj := newSummaryJSON(action, file, size, s, err)
	if a.json() {
		return printJSON(a.stdout, sj)
	}
	checksum := "OK"
	if !s.ChecksumOK {
		checksum = "NOT VERIFIED"
	}
	fmt.Fprintf(a.stdout, "%s %s: %d bytes, format version %d, checksum %s\n", action, file, size, s.Version, checksum)
	fmt.Fprintf(a.stdout, "%d records, %d payload bytes\n", s.TotalRecords, s.PayloadBytes)
	tw := newTable(a.stdout, "  RECORD", "TYPE", "COUNT")
	for _, r := range sj.Records {
		row(tw, "  "+r.Name, r.Type, r.Count)
	}
	if ferr := tw.Flush(); ferr != nil {
		return ferr
	}
	if err != nil {
		fmt.Fprintf(a.stdout, "damaged: %v\n", err)
	}
	return nil
}
