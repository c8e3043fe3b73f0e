package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// Defaults of the global flags; the addresses match raftns's defaults.
const (
	defaultAdminAddr   = "127.0.0.1:9856"
	defaultNamesrvAddr = "127.0.0.1:9876"
	defaultTimeout     = 10 * time.Second
	envAdminAddr       = "RAFTNS_ADDR"
	envNamesrvAddr     = "RAFTNS_NAMESRV"
	envToken           = "RAFTNS_TOKEN"
)

// Output formats of -o.
const (
	outputTable = "table"
	outputJSON  = "json"
)

// app is one invocation: the global options and where output goes.
type app struct {
	addr    string
	namesrv string
	timeout time.Duration
	output  string
	// tokenFile or token (env RAFTNS_TOKEN) is the admin bearer token;
	// caFile verifies an https:// admin address.
	tokenFile string
	token     string
	caFile    string
	stdout    io.Writer
	stderr    io.Writer
}

// run executes one command line and returns the exit status: 0 on success,
// 1 when the command failed, 2 when the command line is wrong, 3 when a
// migrate report or verification found differences.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{stdout: stdout, stderr: stderr}
	root := a.rootCommand(getenv)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, errorLine(err))
	if errors.Is(err, errDisagree) {
		return 3
	}
	if errors.Is(err, errUsage) {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return 2
	}
	return 1
}

// errorLine prefixes err with the program name once.
func errorLine(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "raftnsctl: ") {
		return msg
	}
	return "raftnsctl: " + msg
}

func (a *app) rootCommand(getenv func(string) string) *cobra.Command {
	root := &cobra.Command{
		Use:   "raftnsctl",
		Short: "Administer a RaftNS cluster",
		Long: `raftnsctl administers a RaftNS cluster through any one of its members.

Member commands (status, peers, leader, snapshot) use the member's admin HTTP
API (--addr, env ` + envAdminAddr + `); leader-only operations sent to a follower are
forwarded to the leader by the member. Name server commands (route, clusters,
topics, kv, perm, delete-topic, config, member-group) speak the RocketMQ
remoting protocol to the member's client port (--namesrv, env ` + envNamesrvAddr + `),
as mqadmin does. "raftnsctl completion bash" (zsh, fish, powershell) prints a
shell completion script.

"raftnsctl migrate" compares name servers and copies KV config into RaftNS
when moving from reference NameServers (docs/operators/migration.md).

Exit status: 0 on success, 1 when the operation failed, 2 on a usage error,
3 when migrate report or verify found differences.`,
		Example: `  raftnsctl status
  raftnsctl --addr 10.0.0.2:9856 peers list
  raftnsctl snapshot save backup.snap
  raftnsctl --namesrv 10.0.0.2:9876 route TopicTest
  RAFTNS_NAMESRV=10.0.0.2:9876 raftnsctl kv list ORDER_TOPIC_CONFIG
  raftnsctl --addr https://10.0.0.2:9856 --ca-file ca.pem --token-file admin.token peers list`,
		Args:              cobra.ArbitraryArgs,
		RunE:              groupRunE,
		PersistentPreRunE: a.validate,
		SilenceErrors:     true,
		SilenceUsage:      true,

		SuggestionsMinimumDistance: 2,
	}
	// "raftnsctl completion bash|zsh|fish|powershell" prints a completion script.
	root.CompletionOptions.DisableDescriptions = false
	// Command groups run only to report a missing subcommand: show them as
	// "raftnsctl peers [command]" alone in their usage.
	root.SetUsageTemplate(strings.Replace(root.UsageTemplate(),
		"Usage:{{if .Runnable}}", "Usage:{{if and .Runnable (not .HasAvailableSubCommands)}}", 1))
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%v", err) })
	fs := root.PersistentFlags()
	fs.StringVar(&a.addr, "addr", envOr(getenv, envAdminAddr, defaultAdminAddr),
		"admin HTTP address of a member, HOST:PORT (env "+envAdminAddr+")")
	fs.StringVar(&a.namesrv, "namesrv", envOr(getenv, envNamesrvAddr, defaultNamesrvAddr),
		"RocketMQ name server address of a member, HOST:PORT (env "+envNamesrvAddr+")")
	fs.DurationVar(&a.timeout, "timeout", defaultTimeout,
		"deadline of the whole command, including snapshot transfers")
	fs.StringVarP(&a.output, "output", "o", outputTable, "output format: table or json")
	fs.StringVar(&a.tokenFile, "token-file", "",
		"file holding the admin token (the member's --http-token-file); default: env "+envToken)
	fs.StringVar(&a.caFile, "ca-file", "", "PEM CA certificates that verify an https:// --addr")
	a.token = getenv(envToken)
	root.AddCommand(a.statusCommand(), a.peersCommand(), a.leaderCommand(), a.snapshotCommand(),
		a.routeCommand(), a.clustersCommand(), a.topicsCommand(), a.kvCommand(), a.permCommand(),
		a.deleteTopicCommand(), a.configCommand(), a.memberGroupCommand(), a.controllerCommand(),
		a.migrateCommand(getenv), a.versionCommand(), a.upgradeCommand(), a.auditCommand(), a.watchCommand())
	return root
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// validate checks the global flags before any command runs.
func (a *app) validate(*cobra.Command, []string) error {
	if a.output != outputTable && a.output != outputJSON {
		return usagef("-o %q: want table or json", a.output)
	}
	if a.timeout <= 0 {
		return usagef("--timeout %v: must be positive", a.timeout)
	}
	return nil
}

// json reports whether -o json was asked for.
func (a *app) json() bool { return a.output == outputJSON }

// context bounds one command by --timeout.
func (a *app) context(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return context.WithTimeout(cmd.Context(), a.timeout)
}

// group returns a command that only holds subcommands.
func group(use, short, long string, subs ...*cobra.Command) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short, Long: long, Args: cobra.ArbitraryArgs, RunE: groupRunE,
		SuggestionsMinimumDistance: 2}
	c.AddCommand(subs...)
	return c
}

// groupRunE turns a missing or unknown subcommand into a usage error.
func groupRunE(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		var names []string
		for _, c := range cmd.Commands() {
			if c.IsAvailableCommand() {
				names = append(names, c.Name())
			}
		}
		return usagef("missing command for %q; one of: %s", cmd.CommandPath(), strings.Join(names, ", "))
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return usagef("%s", msg)
}

// exactArgs accepts exactly the named positional arguments, none empty.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := argCount(cmd, args, names); err != nil {
			return err
		}
		for i, arg := range args {
			if arg == "" {
				return usagef("%s: %s must not be empty", commandName(cmd), names[i])
			}
		}
		return nil
	}
}

func argCount(cmd *cobra.Command, args, names []string) error {
	switch {
	case len(args) < len(names):
		return usagef("%s: missing %s", commandName(cmd), strings.Join(names[len(args):], " "))
	case len(args) > len(names):
		return usagef("%s: unexpected argument %q", commandName(cmd), args[len(names)])
	}
	return nil
}

// commandName is the command path without the program name, for messages
// that the program name already prefixes.
func commandName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}
