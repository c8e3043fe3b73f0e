package main

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"
)

// peersSuffrageCommand is "peers promote" (voter) or "peers demote".
func (a *app) peersSuffrageCommand(voter bool) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "demote ID",
		Short: "Make a voter a non-voter, and keep it so",
		Long: `demote asks the leader to make the member ID a non-voter and to keep it so
(POST /v1/peers/ID/demote): it goes on serving reads and forwarding writes,
but no longer votes or counts for quorum, and the leader does not promote it
again until "peers promote". The leader refuses while the voters left that
answer would not form a quorum, and refuses to demote itself (transfer
leadership first).`,
		Example: `  raftnsctl peers demote ns-4`,
	}
	path := "demote"
	if voter {
		cmd.Use, cmd.Short, path = "promote ID", "Make a non-voter a voter", "promote"
		cmd.Long = `promote asks the leader to make the member ID a voter (POST /v1/peers/ID/promote):
at once when it has caught up and runs on the storage the cluster recorded,
otherwise as soon as it has caught up. A member added with --non-voter, or
demoted, stays a non-voter until promoted.`
		cmd.Example = `  raftnsctl peers promote ns-4`
	}
	cmd.Args = exactArgs("ID")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var ans resultAnswer
		if printed, err := a.adminRequest(cmd, http.MethodPost, "/v1/peers/"+url.PathEscape(args[0])+"/"+path, nil, nil, &ans); printed || err != nil {
			return err
		}
		_, err := fmt.Fprintf(a.stdout, "peer %s: %s\n", args[0], ans.Result)
		return err
	}
	return cmd
}
