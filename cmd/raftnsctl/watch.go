package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/spf13/cobra"
)

// watchWait is how long one blocking query of watch and audit --follow
// waits on the member.
const watchWait = 30 * time.Second

func (a *app) watchCommand() *cobra.Command {
	var kind, topic, clusterName string
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Print changes to routes, brokers, KV, members and the audit trail as they happen",
		Long: `watch waits on GET /v1/watch of the member at --addr (blocking queries) and
prints every change it applies that matches the filters: its Raft index, the
kinds of state it touched (route, broker, kv, member, audit, controller) and
the topics and clusters it names ("all topics" when it may touch any). When
the member says changes were missed (this watcher was too slow, or it asked
about changes older than the member remembers), watch says so: read the state
again. It runs until interrupted; --timeout does not apply to it. With -o
json each change is one JSON object a line.`,
		Example: `  raftnsctl watch
  raftnsctl watch --topic TopicTest
  raftnsctl watch --kind broker,member --cluster DefaultCluster`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			q := url.Values{}
			for k, v := range map[string]string{"kind": kind, "topic": topic, "cluster": clusterName} {
				if v != "" {
					q.Set(k, v)
				}
			}
			return a.runWatch(cmd.Context(), q)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&kind, "kind", "", "comma-separated kinds: route, broker, kv, member, audit, controller (default all)")
	fs.StringVar(&topic, "topic", "", "changes to this topic's route or KV")
	fs.StringVar(&clusterName, "cluster", "", "changes to this cluster")
	return cmd
}

func (a *app) runWatch(ctx context.Context, q url.Values) error {
	c, err := a.adminClient()
	if err != nil {
		return err
	}
	first, err := a.watchOnce(ctx, c, q, 0)
	if err != nil {
		return err
	}
	index := first.Index
	for {
		res, err := a.watchOnce(ctx, c, q, index)
		if err != nil {
			return err
		}
		index = res.Index
		if err := a.printChanges(res); err != nil {
			return err
		}
	}
}

// watchOnce is one blocking query from index.
func (a *app) watchOnce(ctx context.Context, c *adminClient, q url.Values, index uint64) (adminapi.WatchResult, error) {
	q2 := url.Values{}
	for k, v := range q {
		q2[k] = v
	}
	q2.Set("index", strconv.FormatUint(index, 10))
	q2.Set("wait", watchWait.String())
	var res adminapi.WatchResult
	ctx, cancel := context.WithTimeout(ctx, watchWait+a.timeout)
	defer cancel()
	_, err := c.call(ctx, http.MethodGet, "/v1/watch", q2, nil, &res)
	return res, err
}

func (a *app) printChanges(res adminapi.WatchResult) error {
	if res.Missed {
		if a.json() {
			_, err := fmt.Fprintf(a.stdout, "{\"missed\":true,\"index\":%d}\n", res.Index)
			return err
		}
		_, err := fmt.Fprintf(a.stdout, "%d\tmissed changes: read the state again\n", res.Index)
		return err
	}
	for _, ch := range res.Changes {
		if a.json() {
			b, _ := json.Marshal(ch)
			if _, err := fmt.Fprintf(a.stdout, "%s\n", b); err != nil {
				return err
			}
			continue
		}
		topics := strings.Join(ch.Topics, ",")
		if ch.AllTopics {
			topics = "all topics"
		}
		row(a.stdout, ch.Index, strings.Join(ch.Kinds, ","), orDash(topics), orDash(strings.Join(ch.Clusters, ",")))
	}
	return nil
}
