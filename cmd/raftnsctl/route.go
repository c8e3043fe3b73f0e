package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"sort"
	"strings"

	"github.com/raftns/raftns/fsm/state"
	"github.com/spf13/cobra"
)

func (a *app) routeCommand() *cobra.Command {
	var consistent bool
	cmd := &cobra.Command{
		Use:   "route TOPIC",
		Short: "Show a topic's route: brokers and queues",
		Long: `route asks the name server at --namesrv for the route of TOPIC
(GET_ROUTEINFO_BY_TOPIC), as producers and consumers do, and shows its broker
groups (name, cluster, broker id -> address; id 0 is the master) and queues
(broker, read and write queue counts, permission: R readable, W writable,
X inheritable). A topic without a route exits with 1. With --consistent the
read goes to the admin API at --addr and is leader-checked.`,
		Example: `  raftnsctl route TopicTest
  raftnsctl --namesrv 10.0.0.2:9876 route TopicTest -o json
  raftnsctl --addr 127.0.0.1:9856 route --consistent TopicTest`,
		Args: exactArgs("TOPIC"),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runRoute(cmd, args[0], consistent) },
	}
	addConsistentFlag(cmd, &consistent)
	return cmd
}

func (a *app) runRoute(cmd *cobra.Command, topic string, consistent bool) error {
	if consistent {
		var route state.TopicRouteData
		if err := a.consistentGet(cmd, routePath(topic), &route); err != nil {
			return err
		}
		return a.printRouteData(topic, &route)
	}
	return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
		route, err := ns.c.GetRoute(ctx, ns.addr, topic)
		if err != nil {
			return ns.fail("route "+topic, err)
		}
		return a.printRouteData(topic, route)
	})
}

func (a *app) printRouteData(topic string, route *state.TopicRouteData) error {
	if a.json() {
		return printJSON(a.stdout, newRouteJSON(route))
	}
	return printRoute(a.stdout, topic, route)
}

// routeJSON is the -o json shape of a route, with the Java TopicRouteData
// field names (broker ids become JSON object keys).
type routeJSON struct {
	OrderTopicConf    string                 `json:"orderTopicConf,omitempty"`
	BrokerDatas       []brokerJSON           `json:"brokerDatas"`
	QueueDatas        []queueJSON            `json:"queueDatas"`
	FilterServerTable map[string][]string    `json:"filterServerTable"`
	QueueMappings     map[string]mappingJSON `json:"topicQueueMappingByBroker,omitempty"`
}

type brokerJSON struct {
	Cluster            string           `json:"cluster"`
	BrokerName         string           `json:"brokerName"`
	BrokerAddrs        map[int64]string `json:"brokerAddrs"`
	EnableActingMaster bool             `json:"enableActingMaster,omitempty"`
	ZoneName           string           `json:"zoneName,omitempty"`
}

type queueJSON struct {
	BrokerName     string `json:"brokerName"`
	ReadQueueNums  int32  `json:"readQueueNums"`
	WriteQueueNums int32  `json:"writeQueueNums"`
	Perm           int32  `json:"perm"`
	TopicSysFlag   int32  `json:"topicSysFlag"`
}

type mappingJSON struct {
	Topic       string          `json:"topic"`
	Scope       string          `json:"scope"`
	TotalQueues int32           `json:"totalQueues"`
	Bname       string          `json:"bname"`
	Epoch       int64           `json:"epoch"`
	Dirty       bool            `json:"dirty"`
	CurrIDMap   map[int32]int32 `json:"currIdMap,omitempty"`
}

func newBrokerJSON(b state.BrokerData) brokerJSON {
	return brokerJSON{Cluster: b.Cluster, BrokerName: b.BrokerName, BrokerAddrs: b.BrokerAddrs,
		EnableActingMaster: b.EnableActingMaster, ZoneName: b.ZoneName}
}

func newRouteJSON(r *state.TopicRouteData) routeJSON {
	out := routeJSON{OrderTopicConf: r.OrderTopicConf, BrokerDatas: []brokerJSON{}, QueueDatas: []queueJSON{},
		FilterServerTable: r.FilterServerTable}
	if out.FilterServerTable == nil {
		out.FilterServerTable = map[string][]string{}
	}
	for _, b := range r.BrokerDatas {
		out.BrokerDatas = append(out.BrokerDatas, newBrokerJSON(b))
	}
	for _, q := range r.QueueDatas {
		out.QueueDatas = append(out.QueueDatas, queueJSON(q))
	}
	if r.TopicQueueMappingByBroker != nil {
		out.QueueMappings = map[string]mappingJSON{}
		for name, m := range r.TopicQueueMappingByBroker {
			out.QueueMappings[name] = mappingJSON(m)
		}
	}
	return out
}

// printRoute renders a route as a broker table and a queue table.
func printRoute(w io.Writer, topic string, r *state.TopicRouteData) error {
	fmt.Fprintf(w, "Topic: %s\n", printable(topic))
	if r.OrderTopicConf != "" {
		fmt.Fprintf(w, "Order topic config: %s\n", printable(r.OrderTopicConf))
	}
	fmt.Fprintln(w)
	tw := newTable(w, "BROKER", "CLUSTER", "ID", "ADDRESS")
	for _, b := range r.BrokerDatas {
		writeBrokerRows(tw, []any{b.BrokerName, b.Cluster}, b.BrokerAddrs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = newTable(w, "QUEUE BROKER", "READ", "WRITE", "PERM")
	for _, q := range r.QueueDatas {
		row(tw, q.BrokerName, q.ReadQueueNums, q.WriteQueueNums, fmt.Sprintf("%s (%d)", permString(q.Perm), q.Perm))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printFilterServers(w, r.FilterServerTable)
}

// writeBrokerRows writes one row per broker id, in id order, each starting
// with lead; a broker without addresses gets one row of dashes.
func writeBrokerRows(w io.Writer, lead []any, addrs map[int64]string) {
	ids := make([]int64, 0, len(addrs))
	for id := range addrs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if len(ids) == 0 {
		row(w, append(lead, "-", "-")...)
	}
	for _, id := range ids {
		row(w, append(lead, id, addrs[id])...)
	}
}

func printFilterServers(w io.Writer, table map[string][]string) error {
	if len(table) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := newTable(w, "BROKER ADDRESS", "FILTER SERVERS")
	for _, addr := range sortedKeys(table) {
		row(tw, addr, strings.Join(table[addr], ","))
	}
	return tw.Flush()
}

// permString renders a queue permission as Java PermName.perm2String does:
// R, W and X (inherit) or "-" for each bit.
func permString(perm int32) string {
	b := []byte("---")
	if perm&4 != 0 {
		b[0] = 'R'
	}
	if perm&2 != 0 {
		b[1] = 'W'
	}
	if perm&1 != 0 {
		b[2] = 'X'
	}
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (a *app) clustersCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "clusters",
		Short: "Show broker clusters, their broker groups and addresses",
		Long: `clusters asks the name server at --namesrv for its cluster table
(GET_BROKER_CLUSTER_INFO) and shows every cluster with its broker groups and
each group's broker id -> address (id 0 is the master).`,
		Example: `  raftnsctl clusters
  raftnsctl clusters -o json`,
		Args: exactArgs(),
		RunE: a.runClusters,
	}
}

func (a *app) runClusters(cmd *cobra.Command, _ []string) error {
	return nsQuery(a, cmd, "cluster info", func(ctx context.Context, ns *nameServer) (*state.ClusterInfo, error) {
		return ns.c.GetClusterInfo(ctx, ns.addr)
	}, func(info *state.ClusterInfo) any { return newClusterJSON(info) }, func(info *state.ClusterInfo) error {
		tw := newTable(a.stdout, "CLUSTER", "BROKER", "ID", "ADDRESS")
		for _, c := range sortedKeys(info.ClusterAddrTable) {
			names := append([]string(nil), info.ClusterAddrTable[c]...)
			sort.Strings(names)
			for _, name := range names {
				writeBrokerRows(tw, []any{c, name}, info.BrokerAddrTable[name].BrokerAddrs)
			}
		}
		return tw.Flush()
	})
}

// clusterJSON is the -o json shape of the cluster table, with the Java
// ClusterInfo field names.
type clusterJSON struct {
	BrokerAddrTable  map[string]brokerJSON `json:"brokerAddrTable"`
	ClusterAddrTable map[string][]string   `json:"clusterAddrTable"`
}

func newClusterJSON(ci *state.ClusterInfo) clusterJSON {
	out := clusterJSON{BrokerAddrTable: map[string]brokerJSON{}, ClusterAddrTable: map[string][]string{}}
	for name, b := range ci.BrokerAddrTable {
		out.BrokerAddrTable[name] = newBrokerJSON(b)
	}
	maps.Copy(out.ClusterAddrTable, ci.ClusterAddrTable)
	return out
}

func (a *app) topicsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "topics",
		Short: "List every topic the name server knows",
		Long: `topics asks the name server at --namesrv for its topic list
(GET_ALL_TOPIC_LIST_FROM_NAMESERVER) and prints one topic per line, sorted.`,
		Example: `  raftnsctl topics
  raftnsctl topics -o json`,
		Args: exactArgs(),
		RunE: a.runTopics,
	}
}

func (a *app) runTopics(cmd *cobra.Command, _ []string) error {
	return nsQuery(a, cmd, "topic list", func(ctx context.Context, ns *nameServer) ([]string, error) {
		topics, err := ns.c.GetAllTopics(ctx, ns.addr)
		topics = append([]string{}, topics...)
		sort.Strings(topics)
		return topics, err
	}, func(topics []string) any {
		return struct {
			TopicList []string `json:"topicList"`
		}{topics}
	}, func(topics []string) error {
		for _, t := range topics {
			fmt.Fprintln(a.stdout, t)
		}
		return nil
	})
}
