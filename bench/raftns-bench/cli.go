package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/raftns/raftns/bench/rawserve"
)

// commonOptions are the flags every scenario takes: which members to load
// (running ones, or members the tool starts) and how to talk to them.
type commonOptions struct {
	Addrs      []string      `json:"addrs,omitempty"`
	HTTP       []string      `json:"http,omitempty"`
	PID        int           `json:"pid,omitempty"`
	Raftns     string        `json:"raftns,omitempty"`
	Members    int           `json:"members,omitempty"`
	WorkDir    string        `json:"workDir,omitempty"`
	Keep       bool          `json:"keep,omitempty"`
	MemberArgs []string      `json:"memberArgs,omitempty"`
	Timeout    time.Duration `json:"timeout"`
	JSON       bool          `json:"-"`
}

func (c *commonOptions) bind(fs *flag.FlagSet) {
	fs.Var((*listFlag)(&c.Addrs), "addrs", "RocketMQ addresses of running members, HOST:PORT,... (default: start members)")
	fs.Var((*listFlag)(&c.HTTP), "http", "admin HTTP addresses of the -addrs members, in the same order")
	fs.IntVar(&c.PID, "pid", 0, "process id of the single -addrs member, for its RSS and CPU time")
	fs.StringVar(&c.Raftns, "raftns", "bin/raftns", "raftns binary used to start members")
	fs.IntVar(&c.Members, "members", 1, "members to start when -addrs is empty (1, 3 or 5)")
	fs.StringVar(&c.WorkDir, "workdir", "", "directory for started members' data and logs (default: a temporary one, removed)")
	fs.BoolVar(&c.Keep, "keep", false, "keep the work directory of started members")
	fs.Func("member-args", "extra raftns flags for started members, space separated", func(v string) error {
		c.MemberArgs = append(c.MemberArgs, strings.Fields(v)...)
		return nil
	})
	fs.DurationVar(&c.Timeout, "timeout", 5*time.Second, "timeout of one request")
	fs.BoolVar(&c.JSON, "json", false, "print the report as JSON instead of tables")
}

func (c *commonOptions) check() error {
	switch {
	case len(c.Addrs) == 0 && c.Raftns == "":
		return fmt.Errorf("%w: give -addrs or -raftns", errUsage)
	case len(c.Addrs) == 0 && c.Members != 1 && c.Members != 3 && c.Members != 5:
		return fmt.Errorf("%w: -members %d: want 1, 3 or 5", errUsage, c.Members)
	case len(c.HTTP) > 0 && len(c.HTTP) != len(c.Addrs):
		return fmt.Errorf("%w: -http has %d addresses for %d -addrs", errUsage, len(c.HTTP), len(c.Addrs))
	case c.PID != 0 && len(c.Addrs) != 1:
		return fmt.Errorf("%w: -pid needs exactly one -addrs member", errUsage)
	case c.Timeout <= 0:
		return fmt.Errorf("%w: -timeout must be positive", errUsage)
	}
	return nil
}

// starts reports whether the tool starts its own members.
func (c *commonOptions) starts() bool { return len(c.Addrs) == 0 }

// invocation is a parsed command line.
type invocation struct {
	name   string
	args   []string
	common commonOptions
	sc     scenario
}

// parseArgs parses "<scenario> [flags]". It returns flag.ErrHelp after
// printing usage when help was asked for.
func parseArgs(args []string, stderr io.Writer) (*invocation, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return nil, fmt.Errorf("%w: no scenario given", errUsage)
		}
		return nil, flag.ErrHelp
	}
	info, ok := scenarios[args[0]]
	if !ok {
		usage(stderr)
		return nil, fmt.Errorf("%w: unknown scenario %q", errUsage, args[0])
	}
	inv := &invocation{name: args[0], args: args[1:], sc: info.make()}
	fs := flag.NewFlagSet("raftns-bench "+inv.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	inv.common.bind(fs)
	inv.sc.bind(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := inv.common.meet(info.needs, inv.name, set); err != nil {
		return nil, err
	}
	if err := inv.sc.check(&inv.common, set); err != nil {
		return nil, err
	}
	if err := inv.common.check(); err != nil {
		return nil, err
	}
	return inv, nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: raftns-bench <scenario> [flags]   (raftns-bench <scenario> -h lists the flags)")
	for _, n := range slices.Sorted(maps.Keys(scenarios)) {
		fmt.Fprintf(w, "  %-9s %s\n", n, scenarios[n].summary)
	}
}

// run is main without the exit: it returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == rawserve.Command {
		// The ceiling servers compare starts from this binary.
		return rawserve.Main(args[1:], stderr)
	}
	inv, err := parseArgs(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintln(stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := execute(ctx, inv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "raftns-bench:", err)
		return 1
	}
	if inv.common.JSON {
		err = rep.writeJSON(stdout)
	} else {
		err = rep.writeText(stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "raftns-bench:", err)
		return 1
	}
	return 0
}
