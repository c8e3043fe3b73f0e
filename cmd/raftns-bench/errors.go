package main

import "errors"

var (
	// errUsage marks a bad command line; the message says what is wrong.
	errUsage = errors.New("raftns-bench: usage")
	// errNoHTTP is returned for a member whose admin address is unknown.
	errNoHTTP = errors.New("raftns-bench: admin HTTP address unknown (give -http)")
	// errTimeout is returned when a polled condition did not come true.
	errTimeout = errors.New("raftns-bench: timed out")
	// errBadProcStat is returned for a /proc/<pid>/stat line that does not parse.
	errBadProcStat = errors.New("raftns-bench: unexpected /proc/<pid>/stat format")
	// errNoSuccess is returned when a load phase completed no request at all.
	errNoSuccess = errors.New("raftns-bench: no request succeeded")
)
