// Command raftns-bench is the RaftNS load generator:
//
//	raftns-bench <scenario> [flags]
//
// Scenarios: route, register, failover, expiry, large, memory, rejoin,
// pause, compare and scale (`raftns-bench` alone lists them). Each prints
// a table (or JSON with -json). Without -addrs it starts the members it
// loads itself, from the -raftns binary, on free loopback ports.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
