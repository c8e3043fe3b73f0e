package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// The name-server commands of mqadmin that change routes or settings:
// write permission, topic deletion, name server config and broker member
// groups.

func (a *app) permCommand() *cobra.Command {
	return group("perm", "Wipe or restore a broker group's write permission",
		`perm wipes or restores the write permission of every topic queue of a broker
group (mqadmin wipeWritePerm / addWritePerm), so producers stop or resume
sending to it, e.g. while the broker is drained.`,
		a.permChangeCommand("wipe", "Remove write permission from every topic of BROKER", remoting.WipeWritePermOfBroker),
		a.permChangeCommand("add", "Give write permission back to every topic of BROKER", remoting.AddWritePermOfBroker))
}

// permResult is the -o json shape of perm wipe/add.
type permResult struct {
	Action     string `json:"action"`
	Broker     string `json:"broker"`
	TopicCount int    `json:"topicCount"`
}

func (a *app) permChangeCommand(action, short string, code int32) *cobra.Command {
	return &cobra.Command{
		Use:   action + " BROKER",
		Short: short,
		Long: short + fmt.Sprintf(" (%s) and print how many topics changed. A broker group the name server "+
			"does not know is reported as not found, exit status 1.", requestName(code)),
		Example: "  raftnsctl perm " + action + " broker-a",
		Args:    exactArgs("BROKER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				if err := ns.brokerKnown(ctx, args[0], "perm "+action+" "+args[0]); err != nil {
					return err
				}
				var n int
				var err error
				if code == remoting.WipeWritePermOfBroker {
					n, err = ns.c.WipeWritePerm(ctx, ns.addr, args[0])
				} else {
					n, err = ns.c.AddWritePerm(ctx, ns.addr, args[0])
				}
				if err != nil {
					return ns.fail("perm "+action+" "+args[0], err)
				}
				if a.json() {
					return printJSON(a.stdout, permResult{Action: action, Broker: args[0], TopicCount: n})
				}
				verb := map[string]string{"wipe": "wiped", "add": "added"}[action]
				_, err = fmt.Fprintf(a.stdout, "write permission %s on %d topics of %s\n", verb, n, args[0])
				return err
			})
		},
	}
}

func requestName(code int32) string {
	switch code {
	case remoting.WipeWritePermOfBroker:
		return "WIPE_WRITE_PERM_OF_BROKER"
	case remoting.AddWritePermOfBroker:
		return "ADD_WRITE_PERM_OF_BROKER"
	}
	return fmt.Sprintf("code %d", code)
}

func (a *app) deleteTopicCommand() *cobra.Command {
	var cluster string
	c := &cobra.Command{
		Use:   "delete-topic TOPIC",
		Short: "Remove a topic's route from the name server",
		Long: `delete-topic removes TOPIC's queue data from the name server
(DELETE_TOPIC_IN_NAMESRV), from every cluster or only --cluster's brokers. As
with mqadmin deleteTopic, brokers that still hold the topic register it again:
delete it on the brokers too. A topic the name server has no queues of (on
--cluster, when given) is reported as not found, exit status 1, and nothing
is deleted.`,
		Example: `  raftnsctl delete-topic TopicTest
  raftnsctl delete-topic TopicTest --cluster DefaultCluster`,
		Args: exactArgs("TOPIC"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				present, err := ns.topicPresent(ctx, args[0], cluster)
				if err != nil {
					return err
				}
				if !present {
					where := ""
					if cluster != "" {
						where = " on cluster " + cluster
					}
					return fmt.Errorf("%w: delete-topic %s: name server %s has no queues of it%s: nothing deleted",
						errNotFound, args[0], ns.addr, where)
				}
				if err := ns.c.DeleteTopic(ctx, ns.addr, args[0], cluster); err != nil {
					return ns.fail("delete-topic "+args[0], err)
				}
				if a.json() {
					return printJSON(a.stdout, map[string]string{"result": "deleted", "topic": args[0], "cluster": cluster})
				}
				_, err = fmt.Fprintf(a.stdout, "deleted topic %s\n", args[0])
				return err
			})
		},
	}
	c.Flags().StringVar(&cluster, "cluster", "", "delete only the queues of this cluster's brokers")
	return c
}

func (a *app) configGetCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "get",
		Short:   "Print the member's name server settings",
		Example: "  raftnsctl --namesrv 10.0.0.2:9876 config get",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				resp, err := ns.c.Invoke(ctx, ns.addr, ns.request(remoting.GetNamesrvConfig, nil))
				if err != nil {
					return ns.fail("config get", err)
				}
				props, err := body.ParseProperties(resp.Body)
				if err != nil {
					return fmt.Errorf("config get: name server %s sent unreadable properties: %w", ns.addr, err)
				}
				if a.json() {
					return printJSON(a.stdout, props)
				}
				tw := newTable(a.stdout, "KEY", "VALUE")
				for _, k := range sortedKeys(props) {
					row(tw, k, props[k])
				}
				return tw.Flush()
			})
		},
	}
}

func (a *app) configUpdateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "update KEY=VALUE...",
		Short: "Change name server settings of the member",
		Long: `update sends KEY=VALUE pairs in one UPDATE_NAMESRV_CONFIG. The member refuses
keys on its configBlackList and member-local keys (NO_PERMISSION). From cluster
version 0.4.0 on the change is the cluster's: every member serves it.`,
		Example: "  raftnsctl config update orderMessageEnable=true",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: missing KEY=VALUE", commandName(cmd))
			}
			for _, arg := range args {
				if k, _, ok := strings.Cut(arg, "="); !ok || k == "" {
					return usagef("%s: %q is not KEY=VALUE", commandName(cmd), arg)
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			props := map[string]string{}
			for _, arg := range args {
				k, v, _ := strings.Cut(arg, "=")
				props[k] = v
			}
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				req := ns.request(remoting.UpdateNamesrvConfig, nil)
				req.Body = body.FormatProperties(props)
				if _, err := ns.c.Invoke(ctx, ns.addr, req); err != nil {
					return ns.fail("config update", err)
				}
				keys := sortedKeys(props)
				if a.json() {
					return printJSON(a.stdout, map[string]any{"result": "updated", "namesrv": ns.addr, "keys": keys})
				}
				_, err := fmt.Fprintf(a.stdout, "updated %s on %s\n", strings.Join(keys, ", "), ns.addr)
				return err
			})
		},
	}
}

// memberGroupJSON is the -o json shape of a member group, with the Java
// BrokerMemberGroup field names.
type memberGroupJSON struct {
	Cluster     string           `json:"cluster"`
	BrokerName  string           `json:"brokerName"`
	BrokerAddrs map[int64]string `json:"brokerAddrs"`
}

func (a *app) memberGroupCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "member-group CLUSTER BROKER",
		Short: "Show the live members of a broker group",
		Long: `member-group shows the broker ids and addresses of BROKER's group in CLUSTER
that have a live registration (GET_BROKER_MEMBER_GROUP, mqadmin
as 5.x brokers ask it).`,
		Example: "  raftnsctl member-group DefaultCluster broker-a",
		Args:    exactArgs("CLUSTER", "BROKER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
				req := ns.request(remoting.GetBrokerMemberGroup, map[string]string{"clusterName": args[0], "brokerName": args[1]})
				resp, err := ns.c.Invoke(ctx, ns.addr, req)
				if err != nil {
					return ns.fail("member-group "+args[0]+" "+args[1], err)
				}
				g, err := body.DecodeBrokerMemberGroup(resp.Body)
				if err != nil {
					return fmt.Errorf("member-group: name server %s sent an unreadable group: %w", ns.addr, err)
				}
				if a.json() {
					return printJSON(a.stdout, memberGroupJSON{Cluster: g.Cluster, BrokerName: g.BrokerName, BrokerAddrs: g.BrokerAddrs})
				}
				if len(g.BrokerAddrs) == 0 {
					_, err := fmt.Fprintf(a.stdout, "no live member of %s in cluster %s\n", args[1], args[0])
					return err
				}
				tw := newTable(a.stdout, "BROKER", "CLUSTER", "ID", "ADDRESS")
				ids := make([]int64, 0, len(g.BrokerAddrs))
				for id := range g.BrokerAddrs {
					ids = append(ids, id)
				}
				sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
				for _, id := range ids {
					row(tw, args[1], args[0], id, g.BrokerAddrs[id])
				}
				return tw.Flush()
			})
		},
	}
}
