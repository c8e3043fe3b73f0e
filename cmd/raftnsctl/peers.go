package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/spf13/cobra"
)

func (a *app) peersCommand() *cobra.Command {
	return group("peers", "List, add and remove cluster members",
		`peers lists and changes the Raft configuration through the admin API of the
member at --addr. Changes are made by the leader; a follower forwards them.`,
		a.peersListCommand(), a.peersAddCommand(), a.peersRemoveCommand(), a.peersSuffrageCommand(true),
		a.peersSuffrageCommand(false))
}

func (a *app) peersListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the members with suffrage, state, readiness and lag",
		Long: `list shows GET /v1/peers: every member of the Raft configuration with its
cluster address, suffrage and stage, a "*" on the leader, and, as the member
reports itself, its Raft state, readiness, applied index, lag behind the
leader's last log index, time since it last heard from the leader and the
identity of its storage. A member that did not answer shows as unreachable;
one being removed as draining (peers remove).

The stage is voter; catching up (a non-voter the leader promotes once it has
caught up and stayed so); non-voter (kept so: peers add --non-voter, peers
demote); or awaiting re-admission (a voter, or a member whose earlier storage
the cluster recorded, that returned on a new, empty data dir: it does not vote
until the leader has recorded its new storage identity). A new member shows
the stage of its suffrage while the leader records its first storage identity,
about a second after reaching it. A storage shown as "NEW (cluster knows OLD)"
is a member on new storage not re-admitted yet.

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
	if err := printPeers(a.stdout, peers); err != nil {
		return err
	}
	if warning := placementWarning(peers); warning != "" {
		fmt.Fprintln(a.stderr, warning)
	}
	return nil
}

// printPeers renders the peer table; a ZONE column follows SUFFRAGE when
// any member has a zone.
func printPeers(w io.Writer, peers []adminapi.PeerStatus) error {
	zoned := slices.ContainsFunc(peers, func(p adminapi.PeerStatus) bool { return p.Zone != "" })
	head := []string{"ID", "ADDRESS", "SUFFRAGE", "STAGE", "LEADER", "STATE", "READY", "APPLIED", "LAG", "LAST CONTACT", "STORAGE"}
	if zoned {
		head = slices.Insert(head, 3, "ZONE")
	}
	tw := newTable(w, head...)
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
		cells := []any{p.ID, p.Address, p.Suffrage, orDash(p.Stage), leader, state, "-", "-", "-", "-", orDash(p.RecordedStorageID)}
		if p.Reachable {
			cells = append(cells[:6], yesNo(p.Ready), p.AppliedIndex, p.Lag, lastContact(p.LastContactMillis, p.Leader), storage(p))
		}
		if zoned {
			cells = slices.Insert(cells, 3, any(orDash(p.Zone)))
		}
		row(tw, cells...)
	}
	return tw.Flush()
}

// storage is a member's storage identity, and the one the cluster knows
// when they differ.
func storage(p adminapi.PeerStatus) string {
	if p.RecordedStorageID != "" && p.StorageID != p.RecordedStorageID {
		return fmt.Sprintf("%s (cluster knows %s)", orDash(p.StorageID), p.RecordedStorageID)
	}
	return orDash(p.StorageID)
}
