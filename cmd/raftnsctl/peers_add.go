package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
	"github.com/spf13/cobra"
)

// addFlags are the options of peers add.
type addFlags struct {
	replace  bool
	nonVoter bool
	wait     time.Duration
}

// Asking again while the member to add does not answer yet: the first
// retry comes after addRetryFirst, each later one twice as late, at most
// addRetryMax, so that a member that takes a few seconds to start is added
// soon after and one that never comes costs a handful of requests.
const (
	addRetryFirst = 250 * time.Millisecond
	addRetryMax   = 4 * time.Second
	addWaitMax    = 10 * time.Minute
)

func (a *app) peersAddCommand() *cobra.Command {
	var f addFlags
	cmd := &cobra.Command{
		Use:   "add ID CLUSTER_ADDR",
		Short: "Add a member by its Raft ID and cluster address",
		Long: `add asks the leader to add the member ID, reachable at its cluster address
CLUSTER_ADDR (its --cluster-addr), to the Raft configuration (POST /v1/peers).
The new member joins as a non-voter and is promoted to voter once it caught up;
with --non-voter it stays a non-voter until "peers promote". Start the new
member first, empty (a member started with --join asks to be added by
itself). The answer is a success only once the member runs as part of the
cluster: it has the configuration and hears from the leader. A member that
stopped its Raft node because it runs on the data of a removed member is taken
out again and the answer says so.

Once the cluster version is raised, the member to add is asked for its
release, so it must run. One that does not answer yet, because it is still
starting, is asked again, ever less often, for up to --wait (30s); --wait 0
asks once. --timeout bounds each request, not the wait.

The leader replaces a member whose ID or cluster address is taken: it removes
that member first. So that a typo cannot remove a live member, add first reads
the configuration (GET /v1/peers) and refuses such an addition unless
--replace is given. Adding a member that is already there with the same ID and
address changes nothing.`,
		Example: `  raftnsctl peers add ns-4 10.0.0.4:9866
  raftnsctl peers add ns-2 10.0.0.9:9866 --replace   # ns-2 moved to a new machine
  raftnsctl peers add ns-5 10.0.0.5:9866 --wait 2m   # ns-5 is still starting
  raftnsctl peers add ns-6 10.0.0.6:9866 --non-voter  # serves reads, never votes`,
		Args: exactArgs("ID", "CLUSTER_ADDR"),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runPeersAdd(cmd, args[0], args[1], f) },
	}
	cmd.Flags().BoolVar(&f.replace, "replace", false, "let the leader replace the member holding ID or CLUSTER_ADDR")
	cmd.Flags().BoolVar(&f.nonVoter, "non-voter", false,
		"keep the member a non-voter: it serves reads and forwards writes but never votes, until peers promote")
	cmd.Flags().DurationVar(&f.wait, "wait", 30*time.Second,
		"how long to keep asking while the member to add does not answer yet (0: ask once)")
	return cmd
}

func (a *app) runPeersAdd(cmd *cobra.Command, id, addr string, f addFlags) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usagef("CLUSTER_ADDR %q: want HOST:PORT", addr)
	}
	if f.wait < 0 || f.wait > addWaitMax {
		return usagef("--wait %v: want 0s to %s", f.wait, addWaitMax)
	}
	c, err := a.adminClient()
	if err != nil {
		return err
	}
	if done, err := a.checkAddition(cmd, c, id, addr, f.replace); done || err != nil {
		return err
	}
	raw, ans, err := a.addPeer(cmd, c, adminapi.AddPeer{ID: id, Address: addr, NonVoter: f.nonVoter}, f.wait)
	if err != nil {
		return err
	}
	if a.json() {
		return printRaw(a.stdout, raw)
	}
	_, err = fmt.Fprintf(a.stdout, "peer %s (%s): %s\n", id, addr, ans.Result)
	return err
}

// checkAddition reads the configuration before adding id at addr: done is
// true when the member is there already; an addition that would replace
// another member is refused unless replace.
func (a *app) checkAddition(cmd *cobra.Command, c *adminClient, id, addr string, replace bool) (done bool, err error) {
	ctx, cancel := a.context(cmd)
	defer cancel()
	var peers []adminapi.PeerStatus
	if _, err := c.call(ctx, http.MethodGet, "/v1/peers", nil, nil, &peers); err != nil {
		return false, fmt.Errorf("read the configuration before adding: %w", err)
	}
	p, ok := findPeer(peers, id, addr)
	switch {
	case !ok:
		return false, nil
	case p.ID == id && p.Address == addr:
		_, err := fmt.Fprintf(a.stdout, "peer %s (%s) is already a member (%s); nothing to do\n", id, addr, p.Suffrage)
		return true, err
	case !replace:
		return false, fmt.Errorf("%w: %s at %s is a member (%s); adding %s at %s would remove it first; "+
			"use --replace if that is meant", errConflict, p.ID, p.Address, p.Suffrage, id, addr)
	}
	return false, nil
}

// addPeer sends POST /v1/peers. While the answer is that the member does
// not answer, it asks again with growing pauses until wait has passed.
func (a *app) addPeer(cmd *cobra.Command, c *adminClient, req adminapi.AddPeer, wait time.Duration) ([]byte, resultAnswer, error) {
	deadline := time.Now().Add(wait)
	pause := addRetryFirst
	for attempt := 1; ; attempt++ {
		var ans resultAnswer
		ctx, cancel := a.context(cmd)
		raw, err := c.call(ctx, http.MethodPost, "/v1/peers", nil, req, &ans)
		cancel()
		left := time.Until(deadline)
		switch {
		case !notAnswering(err):
			return raw, ans, err
		case left <= 0 && attempt > 1:
			return nil, ans, fmt.Errorf("still refused after waiting %s: %w", wait, err)
		case left <= 0:
			return nil, ans, err
		case attempt == 1:
			fmt.Fprintf(a.stderr, "peer %s (%s) does not answer yet; asking again for up to %s\n", req.ID, req.Address, wait)
		}
		if !poll.Sleep(min(pause, left), cmd.Context().Done()) {
			return nil, ans, fmt.Errorf("%w while waiting for peer %s to answer", errInterrupted, req.ID)
		}
		pause = min(2*pause, addRetryMax)
	}
}

// notAnswering reports whether err refuses an addition because the member
// to add did not answer.
func notAnswering(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.Reason == adminapi.ReasonNotAnswering
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
