package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/client/nscompare"
)

// routesNote is said by every import: routes come from the brokers.
const routesNote = "routes are not copied: brokers register their topics with RaftNS once its members are in their namesrvAddr"

func (a *app) migrateImportCommand(f *migrateFlags) *cobra.Command {
	var (
		to                string
		writePerm, dryRun bool
	)
	cmd := &cobra.Command{
		Use:   "import --from 'OLD;OLD...' [--to MEMBER] [--write-perm] [--dry-run]",
		Short: "Copy KV namespaces (and wiped write permission) from old name servers into RaftNS",
		Long: `import reads the KV namespaces of --namespace from every name server of --from
and from the RaftNS member --to (default --namesrv; with a list, the first),
and puts every key the member lacks or holds with another value
(PUT_KV_CONFIG): ordinary writes that the cluster replicates. Keys only
RaftNS holds are kept. With --write-perm it also reads every route and wipes
the write permission (WIPE_WRITE_PERM_OF_BROKER) of the broker groups that
the old name servers have wiped; a group that has not registered with
RaftNS yet is reported, so import again once it has.

Nothing is written while the old name servers disagree on a key or a
group (shown as conflicts): make them agree (migrate report) or name the
one to copy from as --from. A key RaftNS cannot store (an empty key, a key
and value too large for one request, about 64 KiB) is shown as "cannot
store" with the reason and not written; the rest is, and the command exits
with 1. Importing again is safe: what is already there is left alone.
--dry-run reads and prints the same plan without writing.

Routes are not copied: brokers register their own topics with every name
server of their namesrvAddr. With access control on the member, give an
admin account (--access-key, --secret-key-file).`,
		Example: `  raftnsctl migrate import --from '10.0.0.1:9876;10.0.0.2:9876' --to 10.0.1.1:9876 --dry-run
  raftnsctl migrate import --from '10.0.0.1:9876;10.0.0.2:9876' --to 10.0.1.1:9876 --write-perm
  RAFTNS_SECRET_KEY=... raftnsctl migrate import --from 10.0.0.1:9876 --to 10.0.1.1:9876 --access-key admin`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runImport(cmd, f, to, writePerm, dryRun) },
	}
	f.bindCommon(cmd)
	cmd.Flags().StringVar(&to, "to", "", "the RaftNS member to write to, HOST:PORT (default: --namesrv)")
	cmd.Flags().BoolVar(&writePerm, "write-perm", false, "also wipe the write permission of the groups wiped on --from")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be written, without writing")
	return cmd
}

func (a *app) runImport(cmd *cobra.Command, f *migrateFlags, to string, writePerm, dryRun bool) error {
	refs, err := addrList(cmd, "from", f.from)
	if err != nil {
		return err
	}
	if to == "" {
		to = a.namesrv
	}
	targets, err := addrList(cmd, "to", to)
	if err != nil {
		return err
	}
	opts, err := f.options(cmd)
	if err != nil {
		return err
	}
	var plan *nscompare.Plan
	written := 0
	err = a.withClient(cmd, f, opts, func(ctx context.Context, c *nsclient.Client, opts nscompare.Options) error {
		if plan, err = nscompare.PlanImport(ctx, c, refs, targets[0], writePerm, opts); err != nil {
			return fmt.Errorf("%s: %w", commandName(cmd), err)
		}
		if dryRun || len(plan.Conflicts) > 0 {
			return nil
		}
		if written, err = nscompare.Apply(ctx, c, plan, opts); err != nil {
			return fmt.Errorf("%s: %w (%d of %d writes were done before it; importing again is safe)",
				commandName(cmd), err, written, plan.Writes())
		}
		return nil
	})
	if err != nil {
		return err
	}
	if a.json() {
		err = printJSON(a.stdout, struct {
			DryRun  bool `json:"dryRun"`
			Written int  `json:"written"`
			*nscompare.Plan
		}{dryRun, written, plan})
	} else {
		err = printPlan(a.stdout, plan, dryRun)
	}
	if err == nil && len(plan.Conflicts) == 0 && plan.CannotStore() > 0 {
		verb := "were"
		if dryRun {
			verb = "would be"
		}
		err = fmt.Errorf("%s: RaftNS cannot store %d keys of --from (shown as %q, with the reason); the rest %s imported",
			commandName(cmd), plan.CannotStore(), nscompare.ActionCannotStore, verb)
	}
	if err == nil && len(plan.Conflicts) > 0 {
		err = fmt.Errorf("%w: %s: the name servers of --from disagree on %d keys or broker groups; nothing written: "+
			"make them agree (migrate report) or name one as --from", errConflict, commandName(cmd), len(plan.Conflicts))
	}
	return err
}

// printPlan writes one row per key and group, the conflicts, and what was
// (or would be) done.
func printPlan(w io.Writer, p *nscompare.Plan, dryRun bool) error {
	tw := newTable(w, "ACTION", "KIND", "SUBJECT", "VALUE")
	for _, ch := range p.KV {
		value := cell(ch.Value)
		if ch.Old != nil {
			value += " (was " + cell(*ch.Old) + ")"
		}
		if ch.Action == nscompare.ActionCannotStore {
			value = fmt.Sprintf("%d-byte value not written: %s", len(ch.Value), ch.Reason)
		}
		row(tw, ch.Action, nscompare.KindKV, cell(ch.Namespace+"/"+ch.Key), value)
	}
	for _, ch := range p.Perms {
		row(tw, ch.Action, nscompare.KindWritePerm, cell(ch.Broker), "wiped on --from")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, d := range p.Conflicts {
		fmt.Fprintf(w, "\nconflict: %s %s: %s\n", d.Kind, cell(d.Subject), d.Problem)
		tw := newTable(w)
		for i, v := range d.Values {
			row(tw, "", p.References[i], valueCell(v))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\n%s\n%s\n", planLine(p, dryRun), routesNote)
	return err
}

// planLine counts what the plan does to its target.
func planLine(p *nscompare.Plan, dryRun bool) string {
	counts := map[nscompare.Action]int{}
	for _, ch := range p.KV {
		counts[ch.Action]++
	}
	for _, ch := range p.Perms {
		counts[ch.Action]++
	}
	verb := "imported into"
	switch {
	case len(p.Conflicts) > 0:
		verb = "nothing written to"
	case dryRun:
		verb = "dry run, nothing written to"
	}
	s := fmt.Sprintf("%s %s: %s set, %d updated, %d unchanged", verb, p.Target,
		plural(counts[nscompare.ActionSet], "key"), counts[nscompare.ActionUpdate], counts[nscompare.ActionUnchanged])
	if n := counts[nscompare.ActionCannotStore]; n > 0 {
		s += fmt.Sprintf(", %d that RaftNS cannot store not written", n)
	}
	if len(p.Perms) > 0 {
		s += fmt.Sprintf("; write permission wiped on %s, %d already wiped, %d not registered with RaftNS yet",
			plural(counts[nscompare.ActionWipe], "broker group"), counts[nscompare.ActionAlreadyWiped], counts[nscompare.ActionNotRegistered])
	}
	return s
}
