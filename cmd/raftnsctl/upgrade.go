package main

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/spf13/cobra"
)

func (a *app) upgradeCommand() *cobra.Command {
	return group("upgrade", "Rolling upgrades: each member's release and the cluster version",
		`upgrade shows which release each member runs and raises the cluster version once
all run the new one (docs/operators/operations.md, "Upgrading").`,
		a.upgradeStatusCommand(), a.upgradeFinalizeCommand())
}

func (a *app) upgradeStatusCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show each member's release and the cluster version",
		Long: `status lists every member's release (GET /v1/peers) and the cluster version
(GET /v1/status). A member that reports no release runs one from before
versions (` + buildinfo.Baseline + ` or older); an unreachable one shows "-".`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var st adminapi.Status
			if err := a.adminGet(cmd, "/v1/status", nil, &st); err != nil {
				return err
			}
			var peers []adminapi.PeerStatus
			if err := a.adminGet(cmd, "/v1/peers", nil, &peers); err != nil {
				return err
			}
			if a.json() {
				return printJSON(a.stdout, map[string]any{"clusterVersion": st.ClusterVersion, "members": peers})
			}
			fmt.Fprintf(a.stdout, "Cluster version: %s\n", st.ClusterVersion)
			sort.Slice(peers, func(i, j int) bool { return peers[i].ID < peers[j].ID })
			tw := newTable(a.stdout, "ID", "RELEASE", "COMMIT")
			for _, p := range peers {
				release, commit := "-", "-"
				if p.Reachable {
					release, commit = orDash(p.Release), orDash(p.Commit)
					if p.Release == "" {
						release = buildinfo.Baseline + " or older"
					}
				}
				row(tw, p.ID, release, commit)
			}
			return tw.Flush()
		},
	}
}

func (a *app) upgradeFinalizeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "finalize",
		Short: "Raise the cluster version to the leader's release",
		Long: `finalize raises the cluster version to the leader's release (POST
/v1/upgrade/finalize, run on the leader). It is refused while a member runs an
older release or does not answer. Afterwards the features of that release are
used and no member can be downgraded below it: finalize once the new release
has proven itself.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var res adminapi.FinalizeResult
			if printed, err := a.adminRequest(cmd, http.MethodPost, "/v1/upgrade/finalize", nil, nil, &res); printed || err != nil {
				return err
			}
			if res.Previous == res.Current {
				_, err := fmt.Fprintf(a.stdout, "cluster version is %s already; nothing changed\n", res.Current)
				return err
			}
			_, err := fmt.Fprintf(a.stdout, "cluster version raised from %s to %s\n", res.Previous, res.Current)
			return err
		},
	}
}
