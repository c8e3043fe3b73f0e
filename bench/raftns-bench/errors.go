package main

import "errors"

var (
	// errUsage marks a bad command line; the message says what is wrong.
	errUsage = errors.New("raftns-bench: usage")
	// errNoHTTP is returned for a member whose admin address is unknown.
	errNoHTTP = errors.New("raftns-bench: admin HTTP address unknown (give -http)")
	// errBadProcStat is returned for a /proc/<pid>/stat line that does not parse.
	errBadProcStat = errors.New("raftns-bench: unexpected /proc/<pid>/stat format")
	// errNoSuccess is returned when a load phase completed no request at all.
	errNoSuccess = errors.New("raftns-bench: no request succeeded")
)
