package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/client/nscompare"
)

// defaultMaxDifferences is --max-differences unless given.
const defaultMaxDifferences = 1000

// compareFlags are the flags of report and verify.
type compareFlags struct {
	to             string
	dataVersions   bool
	maxDifferences int
}

func (cf *compareFlags) bind(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.BoolVar(&cf.dataVersions, "data-versions", false,
		"also compare each broker's DataVersion (QUERY_DATA_VERSION); name servers count it as a heartbeat of the broker")
	fs.IntVar(&cf.maxDifferences, "max-differences", defaultMaxDifferences,
		"list at most this many differences of each kind (0: all); the rest are counted")
}

func (a *app) migrateReportCommand(f *migrateFlags) *cobra.Command {
	cf := &compareFlags{}
	cmd := &cobra.Command{
		Use:   "report --from 'HOST:PORT;HOST:PORT...'",
		Short: "Show where the name servers of --from disagree",
		Long: `report reads every name server of --from over the RocketMQ protocol (cluster
info, the topic list and the route of every topic, the KV namespaces of
--namespace, the name server settings that shape answers) and lists every
subject on which they disagree: broker ids (address, cluster) known to some
and not others, topics missing or with other queue counts or permissions,
broker groups wiped on some, KV keys, settings, and with --data-versions the
brokers' DataVersions. --from may be reference NameServers or the members of
a RaftNS cluster, which are then checked against each other.

Exit status: 0 when they agree, 3 when they disagree, 1 when a name server
could not be read, 2 on a usage error.`,
		Example: `  raftnsctl migrate report --from '10.0.0.1:9876;10.0.0.2:9876'
  raftnsctl migrate report --from "$NAMESRV_ADDR" -o json | jq '.differences[] | select(.kind == "broker")'
  raftnsctl migrate report --from '10.0.1.1:9876;10.0.1.2:9876;10.0.1.3:9876' --namespace ORDER_TOPIC_CONFIG,MY_NS`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runCompare(cmd, f, cf, false) },
	}
	f.bindCommon(cmd)
	cf.bind(cmd)
	return cmd
}

func (a *app) migrateVerifyCommand(f *migrateFlags) *cobra.Command {
	cf := &compareFlags{}
	cmd := &cobra.Command{
		Use:   "verify --from 'OLD;OLD...' --to 'MEMBER;MEMBER...'",
		Short: "Check that RaftNS holds everything the old name servers hold",
		Long: `verify reads the old name servers of --from and the RaftNS members of --to
(required; each must answer as a RaftNS member) as report does, and lists what a member lacks: broker ids
that have not registered with RaftNS yet, topics it has no route for or other
queues, KV keys not imported, write permission wiped on the old name servers
only, differing settings. Where the old name servers disagree, a member
holding any of their values passes. What only RaftNS holds is listed as
extra and does not fail.

Exit status: 0 when every member holds what --from holds, 3 when not, 1 when
a name server could not be read, 2 on a usage error.`,
		Example: `  raftnsctl migrate verify --from '10.0.0.1:9876;10.0.0.2:9876' --to '10.0.1.1:9876;10.0.1.2:9876;10.0.1.3:9876'`,
		Args:    exactArgs(),
		RunE:    func(cmd *cobra.Command, _ []string) error { return a.runCompare(cmd, f, cf, true) },
	}
	f.bindCommon(cmd)
	cf.bind(cmd)
	cmd.Flags().StringVar(&cf.to, "to", "", "RaftNS members to check, HOST:PORT;... (required)")
	f.bindToReference(cmd)
	return cmd
}

// runCompare runs report (verify false) or verify.
func (a *app) runCompare(cmd *cobra.Command, f *migrateFlags, cf *compareFlags, verify bool) error {
	refs, targets, opts, err := a.compareInputs(cmd, f, cf, verify)
	if err != nil {
		return err
	}
	var res *nscompare.Result
	err = a.withClient(cmd, f, opts, func(ctx context.Context, c *nsclient.Client, opts nscompare.Options) (err error) {
		if err := f.checkRaftNSMembers(ctx, cmd, c, targets); err != nil {
			return err
		}
		if res, err = nscompare.Compare(ctx, c, refs, targets, opts); err != nil {
			return fmt.Errorf("%s: %w", commandName(cmd), err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if a.json() {
		err = printJSON(a.stdout, struct {
			OK bool `json:"ok"`
			*nscompare.Result
		}{res.OK(), res})
	} else {
		err = printCompare(a.stdout, res, verify)
	}
	if err != nil || res.OK() {
		return err
	}
	return &disagreeError{msg: commandName(cmd) + ": " + closingLine(res, verify)}
}

// compareInputs checks the flags of report or verify.
func (a *app) compareInputs(cmd *cobra.Command, f *migrateFlags, cf *compareFlags, verify bool) (refs, targets []string, opts nscompare.Options, err error) {
	if refs, err = addrList(cmd, "from", f.from); err != nil {
		return
	}
	if verify {
		if targets, err = requireTo(cmd, cf.to); err != nil {
			return
		}
		for _, t := range targets {
			if slices.Contains(refs, t) {
				return nil, nil, opts, usagef("%s: %s is in both --from and --to", commandName(cmd), t)
			}
		}
	}
	if cf.maxDifferences < 0 {
		return nil, nil, opts, usagef("%s: --max-differences %d: must not be negative", commandName(cmd), cf.maxDifferences)
	}
	opts, err = f.options(cmd)
	opts.DataVersions, opts.MaxDifferences = cf.dataVersions, cf.maxDifferences
	return
}

// printCompare writes the summary table, one block per difference and a
// closing line.
func printCompare(w io.Writer, r *nscompare.Result, verify bool) error {
	header := []string{"NAME SERVER", "BROKERS", "TOPICS", "KV KEYS"}
	if verify {
		header = append([]string{"ROLE"}, header...)
	}
	tw := newTable(w, header...)
	for _, s := range r.Summaries {
		cells := []any{s.Server, s.Brokers, s.Topics, s.KVKeys}
		if verify {
			cells = append([]any{role(s.Target)}, cells...)
		}
		row(tw, cells...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, d := range r.Differences {
		fmt.Fprintf(w, "\n%s %s: %s\n", d.Kind, cell(d.Subject), d.Problem)
		tw := newTable(w)
		for i, v := range d.Values {
			cells := []any{"", r.Servers[i], valueCell(v)}
			if verify {
				cells = []any{"", role(i >= len(r.Servers)-r.Targets), r.Servers[i], valueCell(v)}
			}
			row(tw, cells...)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n", closingLine(r, verify))
	return err
}

func role(target bool) string {
	if target {
		return "to"
	}
	return "from"
}

// valueCell renders a value; "-" where the name server does not have it.
func valueCell(v *string) string {
	if v == nil {
		return "-"
	}
	return cell(*v)
}

// closingLine says what the comparison found.
func closingLine(r *nscompare.Result, verify bool) string {
	var s string
	switch {
	case verify && r.OK():
		s = "clean: every member of --to holds what --from holds"
	case r.OK() && len(r.Servers) == 1:
		s = "agree: one name server, nothing to compare it with"
	case r.OK():
		s = fmt.Sprintf("agree: the %d name servers hold the same", len(r.Servers))
	case verify:
		s = "not clean: " + foundLine(r)
	default:
		s = "disagree: " + foundLine(r)
	}
	if r.Extras > 0 {
		s += fmt.Sprintf("; %s only on --to (extra)", plural(r.Extras, "subject"))
	}
	return s
}

// foundLine counts the differences by kind, and says how many are not
// listed.
func foundLine(r *nscompare.Result) string {
	var kinds []string
	for _, k := range nscompare.Kinds() {
		if n := r.ByKind[k]; n > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
		}
	}
	s := fmt.Sprintf("%s (%s)", plural(r.Found, "difference"), strings.Join(kinds, ", "))
	if r.Omitted > 0 {
		s += fmt.Sprintf(", %d not listed (--max-differences)", r.Omitted)
	}
	return s
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
