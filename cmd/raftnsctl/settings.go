package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/spf13/cobra"
)

// configLong describes the config group; alone it lists the settings with
// their kinds.
const configLong = `config alone lists the settings of the member at --addr (GET /v1/status) with
their kind: cluster-wide settings (UPDATE_NAMESRV_CONFIG's and
UPDATE_CONTROLLER_CONFIG's run-time keys, and unknown keys) are the cluster's
once the cluster version is 0.4.0 or newer: an update through any member
changes every member, and every member answers the same value. Member-local
settings (addresses, the data directory, TLS files, Raft timers, limits) come
from each member's file and flags and are refused over the RocketMQ protocol.
OWN is the member's own value (its file, flags, defaults, or what an earlier
release persisted); SOURCE says whether the value served is the cluster's.

get and update read and change the settings through the RocketMQ protocol at
--namesrv, as mqadmin getNamesrvConfig and updateNamesrvConfig do; diff
compares the members' own values (docs/operators/operations.md, "Run-time settings").`

func (a *app) configCommand() *cobra.Command {
	c := group("config", "Settings: their kinds, reading and changing them, and how members differ", configLong,
		a.configGetCommand(), a.configUpdateCommand(), a.configDiffCommand())
	c.Args, c.RunE = exactArgs(), a.runConfigKinds
	c.Example = `  raftnsctl config
  raftnsctl config diff
  raftnsctl --namesrv 10.0.0.2:9876 config update orderMessageEnable=true`
	return c
}

func (a *app) runConfigKinds(cmd *cobra.Command, _ []string) error {
	var st adminapi.Status
	if err := a.adminGet(cmd, "/v1/status", nil, &st); err != nil {
		return err
	}
	if a.json() {
		return printJSON(a.stdout, st.Settings)
	}
	if len(st.Settings) == 0 {
		return fmt.Errorf("config: member %s reports no settings (a release older than 0.4.0?)", st.ID)
	}
	tw := newTable(a.stdout, "SCOPE", "KEY", "KIND", "VALUE", "OWN", "SOURCE")
	for _, s := range st.Settings {
		source := "member"
		if s.FromCluster {
			source = "cluster"
		}
		own := "-"
		if s.HasOwn {
			own = s.Own
		}
		row(tw, s.Scope, s.Key, s.Kind, s.Value, own, source)
	}
	return tw.Flush()
}

func (a *app) configDiffCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "diff",
		Short: "Show the settings whose own values differ between members",
		Long: `diff asks the member at --addr for every member's settings (GET
/v1/config/members, which it gathers over the cluster port) and lists each key
whose own value (file, flags, defaults, persisted) is not the same on every
member, with each member's value ("-" for none). Cluster-wide keys are served
alike regardless, once the cluster holds them; their own values matter for a
new cluster's first leader and are what differs after an upgrade. Member-local
keys that differ (addresses, directories) are listed with --all.`,
		Example: `  raftnsctl config diff
  raftnsctl config diff --all -o json`,
		Args: exactArgs(),
		RunE: a.runConfigDiff,
	}
	c.Flags().Bool("all", false, "list member-local keys that differ too")
	return c
}

// configDiff is one key whose own values differ between members.
type configDiff struct {
	Scope  string            `json:"scope"`
	Key    string            `json:"key"`
	Kind   string            `json:"kind"`
	Values map[string]string `json:"values"`
}

func (a *app) runConfigDiff(cmd *cobra.Command, _ []string) error {
	var members []adminapi.MemberSettings
	if err := a.adminGet(cmd, "/v1/config/members", nil, &members); err != nil {
		return err
	}
	all, _ := cmd.Flags().GetBool("all")
	diffs, missing := settingDiffs(members, all)
	if a.json() {
		return printJSON(a.stdout, map[string]any{"differences": diffs, "unanswered": missing})
	}
	return printDiffs(a.stdout, members, diffs, missing)
}

// settingDiffs returns the keys whose own values differ between the
// members that answered, and the members that did not.
func settingDiffs(members []adminapi.MemberSettings, all bool) ([]configDiff, []string) {
	type key struct{ scope, key string }
	values := map[key]map[string]string{}
	kinds := map[key]string{}
	var missing []string
	answered := 0
	for _, m := range members {
		if m.Error != "" || len(m.Settings) == 0 {
			missing = append(missing, m.ID)
			continue
		}
		answered++
		for _, s := range m.Settings {
			k := key{s.Scope, s.Key}
			if values[k] == nil {
				values[k] = map[string]string{}
			}
			if kinds[k] == "" || s.Kind == adminapi.SettingMemberLocal {
				kinds[k] = s.Kind
			}
			v := "-"
			if s.HasOwn {
				v = s.Own
			}
			values[k][m.ID] = v
		}
	}
	var out []configDiff
	for k, vs := range values {
		if kinds[k] == adminapi.SettingMemberLocal && !all {
			continue
		}
		distinct := map[string]bool{}
		for _, v := range vs {
			distinct[v] = true
		}
		if len(distinct) > 1 || len(vs) < answered {
			out = append(out, configDiff{Scope: k.scope, Key: k.key, Kind: kinds[k], Values: vs})
		}
	}
	slices.SortFunc(out, func(x, y configDiff) int {
		return strings.Compare(x.Scope+"\x00"+x.Key, y.Scope+"\x00"+y.Key)
	})
	return out, missing
}

func printDiffs(w io.Writer, members []adminapi.MemberSettings, diffs []configDiff, missing []string) error {
	ids := make([]string, 0, len(members))
	for _, m := range members {
		if !slices.Contains(missing, m.ID) {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	if len(diffs) == 0 {
		fmt.Fprintf(w, "no differences between %s\n", strings.Join(ids, ", "))
	} else {
		tw := newTable(w, append([]string{"SCOPE", "KEY", "KIND"}, ids...)...)
		for _, d := range diffs {
			cells := []any{d.Scope, d.Key, d.Kind}
			for _, id := range ids {
				v, ok := d.Values[id]
				if !ok {
					v = "-"
				}
				cells = append(cells, v)
			}
			row(tw, cells...)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, id := range missing {
		fmt.Fprintf(w, "member %s did not report its settings\n", id)
	}
	return nil
}
