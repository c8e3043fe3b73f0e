// Command raftns runs one RaftNS member: a RocketMQ name server whose route
// tables are replicated with Raft. See README.md and docs/operators/operations.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/internal/buildinfo"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseConfig(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "raftns:", err)
		return 2
	}
	if cfg.PrintVersion {
		fmt.Fprintln(stdout, buildinfo.Get().String("raftns"))
		return 0
	}
	if cfg.PrintOnly {
		printProperties(stdout, cfg.properties())
		return 0
	}
	logger := hclog.New(&hclog.LoggerOptions{
		Name:       "raftns",
		Level:      hclog.LevelFromString(cfg.LogLevel),
		Output:     stderr,
		JSONFormat: cfg.LogFormat == "json",
	})
	id, err := cfg.resolveID()
	if err != nil {
		logger.Error("cannot start", "error", err)
		return 1
	}
	// Every line, Raft's included, names the member that wrote it.
	logger = logger.With(logFieldMember, id)
	logger.Info("starting", "version", buildinfo.Get().String("raftns"))
	logger.Info("garbage collector heap target", "gc_percent", cfg.applyGCTarget(os.Getenv))
	m, err := startMember(cfg, id, logger)
	if err != nil {
		logger.Error("cannot start", "error", err)
		return 1
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	code := 0
wait:
	for {
		select {
		case sig := <-sigs:
			logger.Info("signal received", "signal", sig.String())
			if sig == syscall.SIGHUP {
				m.reloadTLS()
				continue
			}
			break wait
		case err := <-m.errc:
			logger.Error("server stopped", "error", err)
			code = 1
			break wait
		}
	}
	if err := m.shutdown(); err != nil {
		logger.Error("shutdown", "error", err)
		return 1
	}
	return code
}

func printProperties(w io.Writer, props map[string]string) {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s=%s\n", k, props[k])
	}
}

// logFieldMember is the log field naming the member that wrote a line. The
// other stable fields are broker, cluster (a RocketMQ cluster name), topic,
// id (a broker's or another member's) and term; docs/operators/operations.md lists them.
const logFieldMember = "member"
