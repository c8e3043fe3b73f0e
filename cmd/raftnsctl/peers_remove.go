package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
	"github.com/spf13/cobra"
)

// removeFlags are the options of peers remove.
type removeFlags struct {
	force  bool
	drain  time.Duration
	noWait bool
}

// Waiting for a drained member to leave: the configuration is read every
// removeWaitPoll, progress shown every removeWaitShow, and the wait gives
// up removeWaitSlack after the drain should have ended.
const (
	removeWaitPoll  = time.Second
	removeWaitShow  = 10 * time.Second
	removeWaitSlack = time.Minute
)

func (a *app) peersRemoveCommand() *cobra.Command {
	var f removeFlags
	cmd := &cobra.Command{
		Use:   "remove ID",
		Short: "Remove a member from the cluster, after a drain",
		Long: `remove asks the leader to remove the member ID from the Raft configuration
(DELETE /v1/peers/ID). Removing the leader hands leadership to another voter
first. The leader refuses a removal that would leave fewer connected voters
than a quorum, or go from two voters to one; --force removes anyway, for a
member that is gone for good.

The member drains first: every member's address service (GET
/rocketmq/nsaddr) stops listing it at once, so that brokers and clients that
fetch their name-server list from it move away, while it keeps serving for
the drain time (--drain; the leader's --remove-drain, 30 s, when not given).
Then the leader removes it, and the member, if it still runs, refuses client
requests saying it was removed. remove shows the drain and waits until the
member is out of the configuration (--no-wait returns once the drain began).
--drain 0s removes at once.

With -o json the leader's answer is printed unchanged and remove does not wait.`,
		Example: `  raftnsctl peers remove ns-3
  raftnsctl peers remove ns-3 --drain 60s
  raftnsctl peers remove ns-3 --force --drain 0s   # gone for good`,
		Args: exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runPeersRemove(cmd, args[0], f, cmd.Flags().Changed("drain"))
		},
	}
	cmd.Flags().BoolVar(&f.force, "force", false, "remove even if quorum is at risk")
	cmd.Flags().DurationVar(&f.drain, "drain", 0, "how long the member keeps serving, unlisted, before it is removed (default: the leader's --remove-drain)")
	cmd.Flags().BoolVar(&f.noWait, "no-wait", false, "return once the drain began")
	return cmd
}

func (a *app) runPeersRemove(cmd *cobra.Command, id string, f removeFlags, drainGiven bool) error {
	query := url.Values{}
	if f.force {
		query.Set("force", "true")
	}
	if drainGiven {
		if f.drain < 0 {
			return usagef("--drain %v: must not be negative", f.drain)
		}
		query.Set("drain", f.drain.String())
	}
	c, err := a.adminClient()
	if err != nil {
		return err
	}
	ctx, cancel := a.context(cmd)
	var ans adminapi.RemovePeer
	raw, err := c.call(ctx, http.MethodDelete, "/v1/peers/"+url.PathEscape(id), query, nil, &ans)
	cancel()
	switch {
	case err != nil:
		return err
	case a.json():
		return printRaw(a.stdout, raw)
	case ans.Note != "":
		fmt.Fprintf(a.stdout, "peer %s: %s\n", id, ans.Note)
	}
	if ans.Result != adminapi.RemoveResultDraining {
		_, err := fmt.Fprintf(a.stdout, "peer %s: %s\n", id, ans.Result)
		return err
	}
	drain := time.Duration(ans.DrainMillis) * time.Millisecond
	fmt.Fprintf(a.stdout, "peer %s: draining for %s: no longer listed by the address service, still serving; removed when the drain is over\n",
		id, drain)
	if f.noWait {
		return nil
	}
	return a.waitRemoved(cmd.Context(), c, id, drain)
}

// waitRemoved reads the configuration until the member id is out of it,
// showing the drain's progress.
func (a *app) waitRemoved(ctx context.Context, c *adminClient, id string, drain time.Duration) error {
	start, shown := time.Now(), time.Now()
	var last error
	err := poll.Until(ctx, drain+removeWaitSlack, removeWaitPoll, "peer "+id+" to leave the configuration", func() (bool, error) {
		rctx, cancel := context.WithTimeout(ctx, a.timeout)
		defer cancel()
		var peers []adminapi.PeerStatus
		_, last = c.call(rctx, http.MethodGet, "/v1/peers", nil, nil, &peers)
		var ae *apiError
		switch {
		case errors.As(last, &ae) && ae.Status == http.StatusGone:
			return true, nil // --addr is the removed member itself
		case last != nil:
			return false, nil // a leader change, a member restarting: ask again
		}
		if !slices.ContainsFunc(peers, func(p adminapi.PeerStatus) bool { return p.ID == id }) {
			return true, nil
		}
		if left := drain - time.Since(start); time.Since(shown) >= removeWaitShow && left > 0 {
			shown = time.Now()
			fmt.Fprintf(a.stdout, "peer %s: draining, about %s left\n", id, left.Round(time.Second))
		}
		return false, nil
	})
	if err != nil {
		if last != nil {
			err = fmt.Errorf("%w (last answer: %v)", err, last)
		}
		return fmt.Errorf("%w; see raftnsctl peers list and the leader's log", err)
	}
	_, err = fmt.Fprintf(a.stdout, "peer %s: removed\n", id)
	return err
}
