package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
	"github.com/raftns/raftns/snapshots"
	"github.com/spf13/cobra"
)

func (a *app) kvCommand() *cobra.Command {
	return group("kv", "Read and write the name server's KV config",
		`kv reads and writes the name server's KV config (namespace -> key -> value,
e.g. ORDER_TOPIC_CONFIG) through --namesrv with the RocketMQ KV requests, as
mqadmin updateKvConfig and friends do. Writes are replicated by the cluster.`,
		a.kvGetCommand(), a.kvPutCommand(), a.kvDeleteCommand(), a.kvListCommand(),
		a.kvImportCommand(), a.kvExportCommand())
}

func (a *app) kvGetCommand() *cobra.Command {
	var consistent bool
	cmd := &cobra.Command{
		Use:   "get NS KEY",
		Short: "Print the value of KEY in namespace NS",
		Long: `get prints the value of KEY in namespace NS (GET_KV_CONFIG) on a line of its
own. A missing key exits with 1. With --consistent the read goes to the
admin API at --addr and is leader-checked.`,
		Example: `  raftnsctl kv get ORDER_TOPIC_CONFIG TopicOrder
  raftnsctl --addr 127.0.0.1:9856 kv get --consistent ORDER_TOPIC_CONFIG TopicOrder`,
		Args: exactArgs("NS", "KEY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if consistent {
				var e adminapi.KV
				if err := a.consistentGet(cmd, kvPath(args[0], args[1]), &e); err != nil {
					return err
				}
				return a.printKV(e)
			}
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				v, err := ns.c.GetKV(ctx, ns.addr, args[0], args[1])
				if err != nil {
					return ns.fail(fmt.Sprintf("kv get %s %s", args[0], args[1]), err)
				}
				return a.printKV(adminapi.KV{Namespace: args[0], Key: args[1], Value: v})
			})
		},
	}
	addConsistentFlag(cmd, &consistent)
	return cmd
}

// printKV prints one key's value (the whole entry with -o json).
func (a *app) printKV(e adminapi.KV) error {
	if a.json() {
		return printJSON(a.stdout, e)
	}
	_, err := fmt.Fprintln(a.stdout, e.Value)
	return err
}

func (a *app) kvPutCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "put NS KEY VALUE",
		Short: "Set KEY in namespace NS to VALUE",
		Long:  `put sets KEY in namespace NS to VALUE (PUT_KV_CONFIG); VALUE may be empty.`,
		Example: `  raftnsctl kv put ORDER_TOPIC_CONFIG TopicOrder broker-a:4;broker-b:4
  raftnsctl kv put ORDER_TOPIC_CONFIG TopicOrder ""`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 3 && args[2] == "" {
				return exactArgs("NS", "KEY")(cmd, args[:2])
			}
			return exactArgs("NS", "KEY", "VALUE")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				if err := ns.c.PutKV(ctx, ns.addr, args[0], args[1], args[2]); err != nil {
					return ns.fail(fmt.Sprintf("kv put %s %s", args[0], args[1]), err)
				}
				return a.printKVDone("put", adminapi.KV{Namespace: args[0], Key: args[1], Value: args[2]})
			})
		},
	}
}

func (a *app) kvDeleteCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "delete NS KEY",
		Short: "Delete KEY from namespace NS",
		Long: `delete removes KEY from namespace NS (DELETE_KV_CONFIG). Deleting a missing
key succeeds, as on the reference name server.`,
		Example: `  raftnsctl kv delete ORDER_TOPIC_CONFIG TopicOrder`,
		Args:    exactArgs("NS", "KEY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				if err := ns.c.DeleteKV(ctx, ns.addr, args[0], args[1]); err != nil {
					return ns.fail(fmt.Sprintf("kv delete %s %s", args[0], args[1]), err)
				}
				return a.printKVDone("deleted", adminapi.KV{Namespace: args[0], Key: args[1]})
			})
		},
	}
}

// printKVDone confirms a write.
func (a *app) printKVDone(verb string, e adminapi.KV) error {
	if a.json() {
		return printJSON(a.stdout, struct {
			Result string `json:"result"`
			adminapi.KV
		}{verb, e})
	}
	_, err := fmt.Fprintf(a.stdout, "%s %s %s\n", verb, e.Namespace, e.Key)
	return err
}

func (a *app) kvListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list NS",
		Short: "List the keys and values of namespace NS",
		Long: `list shows every key of namespace NS with its value, sorted by key
(GET_KVLIST_BY_NAMESPACE). Values with tabs, line breaks or nothing in them
are shown quoted. A namespace the name server does not have exits with 1.`,
		Example: `  raftnsctl kv list ORDER_TOPIC_CONFIG
  raftnsctl kv list ORDER_TOPIC_CONFIG -o json`,
		Args: exactArgs("NS"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				table, err := ns.kvList(ctx, args[0])
				if err != nil {
					return err
				}
				if a.json() {
					return printJSON(a.stdout, struct {
						Namespace string            `json:"namespace"`
						Table     map[string]string `json:"table"`
					}{args[0], table})
				}
				tw := newTable(a.stdout, "KEY", "VALUE")
				for _, k := range sortedKeys(table) {
					row(tw, cell(k), cell(table[k]))
				}
				return tw.Flush()
			})
		},
	}
}

// kvList sends GET_KVLIST_BY_NAMESPACE, which nsclient has no method for.
func (n *nameServer) kvList(ctx context.Context, namespace string) (map[string]string, error) {
	what := "kv list " + namespace
	resp, err := n.c.Invoke(ctx, n.addr, n.request(remoting.GetKVListByNamespace, map[string]string{"namespace": namespace}))
	if err != nil {
		return nil, n.fail(what, err)
	}
	table, err := body.DecodeKVTable(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%w: %s from %s: %v", errBadAnswer, what, n.addr, err)
	}
	return table, nil
}

// cell quotes a table cell that would break the table or be invisible.
func cell(s string) string {
	if s == "" || strings.Contains(s, `"`) || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return printable(s)
}

func (a *app) kvExportCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "export NS...",
		Short: "Print namespaces in the reference kvConfig.json format",
		Long: `export reads the namespaces NS... (GET_KVLIST_BY_NAMESPACE) and prints them
as the reference name server's kvConfig.json ({"configTable":{…}}), ready for
"kv import" or for a Java name server's kvConfigPath. Nothing is printed
unless every namespace was read; a missing namespace exits with 1.`,
		Example: `  raftnsctl kv export ORDER_TOPIC_CONFIG > kvConfig.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: missing NS", commandName(cmd))
			}
			names := make([]string, len(args))
			for i := range names {
				names[i] = "NS"
			}
			return exactArgs(names...)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				out := map[string]map[string]string{}
				for _, name := range args {
					table, err := ns.kvList(ctx, name)
					if err != nil {
						return err
					}
					out[name] = table
				}
				_, err := fmt.Fprintf(a.stdout, "%s\n", snapshots.FormatKVConfigJSON(out))
				return err
			})
		},
	}
}

func (a *app) kvImportCommand() *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Load a reference name server's kvConfig.json",
		Long: `import reads FILE, a kvConfig.json written by the reference RocketMQ name
server (KVConfigManager, {"configTable":{"NS":{"KEY":"VALUE"}}}), checks all
of it, then sets every key with PUT_KV_CONFIG, namespace by namespace and key
by key in sorted order. A file that does not parse, or holds an empty
namespace or key name, changes nothing. Existing keys not in FILE are kept.
Namespaces without keys cannot be created over the protocol and are skipped
with a warning. If a put fails, the keys before it stay set; import again
after fixing the cause. --timeout bounds the whole import: raise it for
files with thousands of keys.`,
		Example: `  raftnsctl kv import /home/rocketmq/namesrv/kvConfig.json
  raftnsctl kv import --dry-run kvConfig.json`,
		Args: exactArgs("FILE"),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runKVImport(cmd, args[0], dryRun) },
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "check FILE and print what would be set, without sending")
	return cmd
}

func (a *app) runKVImport(cmd *cobra.Command, file string, dryRun bool) error {
	entries, err := readKVConfigFile(file, a.stderr)
	if err != nil {
		return err
	}
	if dryRun {
		tw := newTable(a.stdout, "NAMESPACE", "KEY", "VALUE")
		for _, e := range entries {
			row(tw, cell(e.Namespace), cell(e.Key), cell(e.Value))
		}
		return tw.Flush()
	}
	return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
		for i, e := range entries {
			if err := ns.c.PutKV(ctx, ns.addr, e.Namespace, e.Key, e.Value); err != nil {
				err = ns.fail(fmt.Sprintf("kv import %s %s", e.Namespace, e.Key), err)
				return fmt.Errorf("%w (%d of %d keys were set before it)", err, i, len(entries))
			}
		}
		_, err := fmt.Fprintf(a.stdout, "imported %d keys from %s\n", len(entries), file)
		return err
	})
}

// readKVConfigFile parses and checks a kvConfig.json, returning its keys
// sorted by namespace then key; empty namespaces are reported to warn.
func readKVConfigFile(file string, warn io.Writer) ([]adminapi.KV, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("kv import: %w", err)
	}
	table, err := snapshots.ParseKVConfigJSON(data)
	if err != nil {
		return nil, fmt.Errorf("kv import %s: %w", file, err)
	}
	var entries []adminapi.KV
	for _, ns := range sortedKeys(table) {
		if ns == "" {
			return nil, fmt.Errorf("kv import %s: %w: empty namespace name", file, snapshots.ErrKVConfig)
		}
		if len(table[ns]) == 0 {
			fmt.Fprintf(warn, "raftnsctl: kv import: namespace %q has no keys; skipped\n", ns)
		}
		for _, k := range sortedKeys(table[ns]) {
			if k == "" {
				return nil, fmt.Errorf("kv import %s: %w: empty key name in namespace %q", file, snapshots.ErrKVConfig, ns)
			}
			entries = append(entries, adminapi.KV{Namespace: ns, Key: k, Value: table[ns][k]})
		}
	}
	return entries, nil
}
