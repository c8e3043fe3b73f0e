// Package chaos runs real raftns processes under a seeded nemesis (SIGKILL,
// SIGSTOP/SIGCONT, partitions through fault-injecting proxies, membership
// changes, a full disk) while clients record a history of what they asked
// and what they were told, then checks that history for linearizability
// with porcupine against a sequential model of the route and KV state.
// docs/contributors/reliability.md describes the fault model, the checker and how to
// replay a seed. The package holds only the harness; the test that runs it
// is in chaos_test.go.
package chaos
