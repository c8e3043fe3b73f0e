package main

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"
)

func (a *app) leaderCommand() *cobra.Command {
	return group("leader", "Leadership operations",
		`leader changes which member leads the cluster.`,
		a.leaderTransferCommand())
}

func (a *app) leaderTransferCommand() *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "transfer",
		Short: "Hand leadership to another voter",
		Long: `transfer asks the leader to hand leadership over (POST /v1/leader/transfer),
to the voter --to names, or else to the most up-to-date voter. Use it before
taking the leader down for maintenance.`,
		Example: `  raftnsctl leader transfer
  raftnsctl leader transfer --to ns-2`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runLeaderTransfer(cmd, to) },
	}
	cmd.Flags().StringVar(&to, "to", "", "ID of the voter to hand leadership to")
	return cmd
}

func (a *app) runLeaderTransfer(cmd *cobra.Command, to string) error {
	if cmd.Flags().Changed("to") && to == "" {
		return usagef("--to must not be empty")
	}
	var query url.Values
	if to != "" {
		query = url.Values{"to": {to}}
	}
	var ans resultAnswer
	if printed, err := a.adminRequest(cmd, http.MethodPost, "/v1/leader/transfer", query, nil, &ans); printed || err != nil {
		return err
	}
	leader := ans.LeaderID
	if leader == "" {
		leader = "not known yet (see raftnsctl status)"
	}
	_, err := fmt.Fprintf(a.stdout, "leadership %s; leader: %s\n", ans.Result, leader)
	return err
}
