// Command raftnsctl administers a RaftNS cluster: member status, peers,
// leader transfer and snapshot backups over a member's admin HTTP API, and
// route, cluster, topic and KV queries over its RocketMQ NameServer port.
// See docs/operators/raftnsctl.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
