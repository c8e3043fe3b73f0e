package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/spf13/cobra"
)

func (a *app) peersCommand() *cobra.Command {
	return group("peers", "List, add and remove cluster members",
		`peers lists and changes the Raft configuration through the admin API of the
member at --addr. Changes are made by the leader; a follower forwards them.`,
		a.peersListCommand(), a.peersAddCommand(), a.peersRemoveCommand())
}

func (a *app) peersListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the members with suffrage, state, readiness and lag",
		Long: `list shows GET /v1/peers: every member of the Raft configuration with its
cluster address and suffrage, a "*" on the leader, and, as the member reports
itself, its Raft state, readiness, applied index, lag behind the leader's last
log index and time since it last heard from the leader. A member that did not
answer shows as unreachable; one being removed as draining (peers remove).

With -o json the member's answer is printed unchanged.`,
		Example: `  raftnsctl peers list
  raftnsctl peers list -o json`,
		Args: exactArgs(),
		RunE: a.runPeersList,
	}
}

func (a *app) runPeersList(cmd *cobra.Command, _ []string) error {
	var peers []adminapi.PeerStatus
	if printed, err := a.adminRequest(cmd, http.MethodGet, "/v1/peers", nil, nil, &peers); printed || err != nil {
		return err
	}
	return printPeers(a.stdout, peers)
}

// printPeers renders the peer table.
func printPeers(w io.Writer, peers []adminapi.PeerStatus) error {
	tw := newTable(w, "ID", "ADDRESS", "SUFFRAGE", "LEADER", "STATE", "READY", "APPLIED", "LAG", "LAST CONTACT")
	for _, p := range peers {
		leader := ""
		if p.Leader {
			leader = "*"
		}
		state := orDash(p.State)
		if !p.Reachable {
			state = "unreachable"
		}
		if p.Membership != "" {
			state += ", " + p.Membership
		}
		if !p.Reachable {
			row(tw, p.ID, p.Address, p.Suffrage, leader, state, "-", "-", "-", "-")
			continue
		}
		row(tw, p.ID, p.Address, p.Suffrage, leader, state, yesNo(p.Ready), p.AppliedIndex, p.Lag,
			lastContact(p.LastContactMillis, p.Leader))
	}
	return tw.Flush()
}

func (a *app) peersAddCommand() *cobra.Command {
	var replace bool
	cmd := &cobra.Command{
		Use:   "add ID CLUSTER_ADDR",
		Short: "Add a member by its Raft ID and cluster address",
		Long: `add asks the leader to add the member ID, reachable at its cluster address
CLUSTER_ADDR (its --cluster-addr), to the Raft configuration (POST /v1/peers).
The new member joins as a non-voter and is promoted to voter once it caught up.
Start the new member first, empty and with --bootstrap=false (a member started
with --join asks to be added by itself).

The leader replaces a member whose ID or cluster address is taken: it removes
that member first. So that a typo cannot remove a live member, add first reads
the configuration (GET /v1/peers) and refuses such an addition unless
--replace is given. Adding a member that is already there with the same ID and
address changes nothing.`,
		Example: `  raftnsctl peers add ns-4 10.0.0.4:9866
  raftnsctl peers add ns-2 10.0.0.9:9866 --replace   # ns-2 moved to a new machine`,
		Args: exactArgs("ID", "CLUSTER_ADDR"),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runPeersAdd(cmd, args[0], args[1], replace) },
	}
	cmd.Flags().BoolVar(&replace, "replace", false, "let the leader replace the member holding ID or CLUSTER_ADDR")
	return cmd
}

func (a *app) runPeersAdd(cmd *cobra.Command, id, addr string, replace bool) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usagef("CLUSTER_ADDR %q: want HOST:PORT", addr)
	}
	return a.withAdmin(cmd, func(ctx context.Context, c *adminClient) error {
		var peers []adminapi.PeerStatus
		if _, err := c.call(ctx, http.MethodGet, "/v1/peers", nil, nil, &peers); err != nil {
			return fmt.Errorf("read the configuration before adding: %w", err)
		}
		if p, ok := findPeer(peers, id, addr); ok {
			if p.ID == id && p.Address == addr {
				_, err := fmt.Fprintf(a.stdout, "peer %s (%s) is already a member (%s); nothing to do\n", id, addr, p.Suffrage)
				return err
			}
			if !replace {
				return fmt.Errorf("%w: %s at %s is a member (%s); adding %s at %s would remove it first; "+
					"use --replace if that is meant", errConflict, p.ID, p.Address, p.Suffrage, id, addr)
			}
		}
		var ans resultAnswer
		raw, err := c.call(ctx, http.MethodPost, "/v1/peers", nil, adminapi.AddPeer{ID: id, Address: addr}, &ans)
		if err != nil {
			return err
		}
		if a.json() {
			return printRaw(a.stdout, raw)
		}
		_, err = fmt.Fprintf(a.stdout, "peer %s (%s): %s\n", id, addr, ans.Result)
		return err
	})
}

// findPeer returns the member holding id or addr.
func findPeer(peers []adminapi.PeerStatus, id, addr string) (adminapi.PeerStatus, bool) {
	for _, p := range peers {
		if p.ID == id || p.Address == addr {
			return p, true
		}
	}
	return adminapi.PeerStatus{}, false
}
