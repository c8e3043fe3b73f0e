package main

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"
)

func (a *app) peersRemoveCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "remove ID",
		Short: "Remove a member from the cluster",
		Long: `remove asks the leader to remove the member ID from the Raft configuration
(DELETE /v1/peers/ID). Removing the leader hands leadership to another voter
first. The leader refuses a removal that would leave fewer connected voters
than a quorum, or go from two voters to one; --force removes anyway, for a
member that is gone for good.`,
		Example: `  raftnsctl peers remove ns-3
  raftnsctl peers remove ns-3 --force`,
		Args: exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runPeersRemove(cmd, args[0], force) },
	}
	cmd.Flags().BoolVar(&force, "force", false, "remove even if quorum is at risk")
	return cmd
}

func (a *app) runPeersRemove(cmd *cobra.Command, id string, force bool) error {
	var query url.Values
	if force {
		query = url.Values{"force": {"true"}}
	}
	var ans resultAnswer
	if printed, err := a.adminRequest(cmd, http.MethodDelete, "/v1/peers/"+url.PathEscape(id), query, nil, &ans); printed || err != nil {
		return err
	}
	_, err := fmt.Fprintf(a.stdout, "peer %s: %s\n", id, ans.Result)
	return err
}
