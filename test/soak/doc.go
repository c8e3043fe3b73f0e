// Package soak runs a three-member cluster of real raftns processes for a
// long time under a steady load — fake brokers registering every 30 s with
// every member, registration churn, KV and topic writes, route and KV
// reads, periodic leader transfers and one member restart — while it
// samples every member's resident memory, goroutines, open file
// descriptors, data-dir size, snapshot count and Raft log size. It fails
// when one of them keeps growing instead of levelling off (growth.go says
// exactly when). docs/contributors/reliability.md, "Soak", has the rule, a one-hour
// run's figures and how to draw its plot; `make soak` runs it.
package soak
