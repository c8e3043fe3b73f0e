package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/spf13/cobra"
)

func (a *app) statusCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the member's Raft state, leader, readiness and indexes",
		Long: `status shows GET /v1/status of the member at --addr: its Raft state and term,
the leader it follows, whether it serves client reads (and why not), its
commit, applied and last log indexes, how long ago it heard from the leader,
its addresses and the number of brokers and topics it holds.

With -o json the member's answer is printed unchanged.`,
		Example: `  raftnsctl status
  raftnsctl --addr 10.0.0.3:9856 status -o json`,
		Args: exactArgs(),
		RunE: a.runStatus,
	}
}

func (a *app) runStatus(cmd *cobra.Command, _ []string) error {
	var st adminapi.Status
	if printed, err := a.adminRequest(cmd, http.MethodGet, "/v1/status", nil, nil, &st); printed || err != nil {
		return err
	}
	return printStatus(a.stdout, &st)
}

// printStatus renders a member status as "key: value" lines.
func printStatus(w io.Writer, st *adminapi.Status) error {
	tw := newTable(w)
	row(tw, "ID:", st.ID)
	row(tw, "State:", st.State)
	row(tw, "Term:", st.Term)
	row(tw, "Leader:", leaderLine(st))
	ready := yesNo(st.Ready)
	if !st.Ready && st.ReadyReason != "" {
		ready += " (" + st.ReadyReason + ")"
	}
	row(tw, "Ready:", ready)
	row(tw, "Leading:", leadingLine(st))
	if st.Membership != "" {
		row(tw, "Membership:", membershipLine(st.Membership))
	}
	row(tw, "Commit index:", st.CommitIndex)
	row(tw, "Applied index:", st.AppliedIndex)
	row(tw, "Last index:", st.LastIndex)
	row(tw, "Last contact:", lastContact(st.LastContactMillis, st.LeaderID != "" && st.LeaderID == st.ID))
	row(tw, "Cluster address:", orDash(st.ClusterAddr))
	row(tw, "Client address:", orDash(st.ClientAddr))
	row(tw, "HTTP address:", orDash(st.HTTPAddr))
	row(tw, "Brokers:", st.Brokers)
	row(tw, "Topics:", st.Topics)
	row(tw, "Build:", memberBuildLine(st.Build))
	return tw.Flush()
}

// leaderLine names the leader with the addresses the member knows for it.
func leaderLine(st *adminapi.Status) string {
	if st.LeaderID == "" && st.LeaderAddr == "" {
		return "none known"
	}
	s := fmt.Sprintf("%s (cluster %s", orDash(st.LeaderID), orDash(st.LeaderAddr))
	if st.LeaderClientAddr != "" {
		s += ", client " + st.LeaderClientAddr
	}
	if st.LeaderHTTPAddr != "" {
		s += ", http " + st.LeaderHTTPAddr
	}
	return s + ")"
}

// leadingLine says whether this member itself serves as the leader: the
// answer concerns this member, never whether the cluster has a leader
// (the Leader line says that).
func leadingLine(st *adminapi.Status) string {
	switch {
	case st.State == "Leader" && st.LeaderReady:
		return "yes (this member is the leader, in office)"
	case st.State == "Leader":
		return "not yet (elected leader, taking office)"
	}
	switch st.State {
	case "Shutdown":
		return "no (its Raft node is stopped)"
	case "":
		return "no"
	}
	return "no (a " + strings.ToLower(st.State) + ")"
}

// membershipLine says what a member's membership state means.
func membershipLine(m string) string {
	switch m {
	case adminapi.MembershipDraining:
		return m + " (being removed: no longer listed by the address service, still serving)"
	case adminapi.MembershipRemoved:
		return m + " (removed from the cluster: refuses client requests)"
	}
	return m
}
