package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func (a *app) controllerCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "controller",
		Short: "Inspect and steer RocketMQ 5 controller-mode broker groups",
		Long: `controller speaks the RocketMQ 5 controller protocol to the member at --namesrv
(the member answers, or forwards to the Raft leader, which is the controller
leader; docs/operators/controller.md).`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	var cluster, ids string
	var living bool
	elect := &cobra.Command{
		Use:   "elect BROKER_NAME BROKER_ID",
		Short: "Make BROKER_ID the master of its group if it is alive (mqadmin electMaster)",
		Args:  exactArgs("BROKER_NAME", "BROKER_ID"),
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runElect(cmd, cluster, args[0], args[1]) },
	}
	elect.Flags().StringVar(&cluster, "cluster", "", "cluster of the broker group")
	clean := &cobra.Command{
		Use:   "clean BROKER_NAME",
		Short: "Remove a broker group, or some of its broker ids, from the controller (mqadmin cleanBrokerMetadata)",
		Args:  exactArgs("BROKER_NAME"),
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runClean(cmd, cluster, args[0], ids, living) },
	}
	clean.Flags().StringVar(&cluster, "cluster", "", "cluster of the broker group")
	clean.Flags().StringVar(&ids, "ids", "", "broker ids to remove, separated by ';' (default: the whole group, once it has no master)")
	clean.Flags().BoolVar(&living, "clean-living", false, "also remove brokers that are alive")
	c.AddCommand(&cobra.Command{
		Use:   "metadata",
		Short: "Show the controller leader and peers (mqadmin getControllerMetaData)",
		Args:  exactArgs(),
		RunE:  func(cmd *cobra.Command, _ []string) error { return a.runMetadata(cmd) },
	}, &cobra.Command{
		Use:   "sync-state-set BROKER_NAME...",
		Short: "Show master, epochs and in-sync replicas of broker groups (mqadmin getSyncStateSet)",
		Args:  cobra.MinimumNArgs(1),
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runSyncStateSet(cmd, args) },
	}, &cobra.Command{
		Use:   "broker-epoch BROKER_NAME",
		Short: "Show a group's master, master epoch and SyncStateSet epoch (CONTROLLER_GET_REPLICA_INFO)",
		Args:  exactArgs("BROKER_NAME"),
		RunE:  func(cmd *cobra.Command, args []string) error { return a.runBrokerEpoch(cmd, args[0]) },
	}, elect, clean)
	return c
}

// controllerCall sends one controller request and returns the answer.
func (a *app) controllerCall(cmd *cobra.Command, what string, code int32, ext map[string]string, payload []byte,
	show func(resp *remoting.Command) error) error {
	return a.withNameServer(cmd, func(ctx context.Context, ns *nameServer) error {
		req := ns.request(code, ext)
		req.Body = payload
		resp, err := ns.c.Invoke(ctx, ns.addr, req)
		if err != nil {
			return ns.fail(what, err)
		}
		return show(resp)
	})
}

func (a *app) runMetadata(cmd *cobra.Command) error {
	return a.controllerCall(cmd, "controller metadata", remoting.ControllerGetMetadataInfo, nil, nil, func(resp *remoting.Command) error {
		if a.json() {
			return printJSON(a.stdout, resp.ExtFields)
		}
		e := resp.ExtFields
		fmt.Fprintf(a.stdout, "Group:          %s\nLeader:         %s %s\nThis member:    leader=%s\n",
			printable(e["group"]), printable(orDash(e["controllerLeaderId"])), printable(orDash(e["controllerLeaderAddress"])), printable(e["isLeader"]))
		for _, p := range strings.Split(e["peers"], ";") {
			if p != "" {
				fmt.Fprintf(a.stdout, "Peer:           %s\n", printable(p))
			}
		}
		return nil
	})
}

func (a *app) runSyncStateSet(cmd *cobra.Command, names []string) error {
	payload, _ := json.Marshal(names)
	return a.controllerCall(cmd, "sync state data", remoting.ControllerGetSyncStateData, nil, payload, func(resp *remoting.Command) error {
		var info struct {
			ReplicasInfoTable map[string]json.RawMessage `json:"replicasInfoTable"`
		}
		if err := json.Unmarshal(resp.Body, &info); err != nil {
			return fmt.Errorf("sync state data: %w", err)
		}
		if a.json() {
			return printRaw(a.stdout, resp.Body)
		}
		w := newTable(a.stdout, "BROKER", "MASTER", "MASTER EPOCH", "SYNC EPOCH", "ID", "ADDRESS", "IN SYNC", "ALIVE")
		for _, name := range names {
			raw, ok := info.ReplicasInfoTable[name]
			if !ok {
				row(w, name, "-", "-", "-", "-", "(not in the controller)", "-", "-")
				continue
			}
			var g struct {
				MasterAddress     string
				MasterEpoch       int
				SyncStateSetEpoch int
				InSyncReplicas    []replicaJSON
				NotInSyncReplicas []replicaJSON
			}
			if err := json.Unmarshal(raw, &g); err != nil {
				return fmt.Errorf("sync state data of %s: %w", name, err)
			}
			all := append(append([]replicaJSON(nil), g.InSyncReplicas...), g.NotInSyncReplicas...)
			sort.Slice(all, func(i, j int) bool { return all[i].BrokerID < all[j].BrokerID })
			for _, r := range all {
				inSync := false
				for _, s := range g.InSyncReplicas {
					inSync = inSync || s.BrokerID == r.BrokerID
				}
				row(w, name, orDash(g.MasterAddress), g.MasterEpoch, g.SyncStateSetEpoch, r.BrokerID, r.BrokerAddress, yesNo(inSync), yesNo(r.Alive))
			}
		}
		return w.Flush()
	})
}

type replicaJSON struct {
	BrokerID      int64  `json:"brokerId"`
	BrokerAddress string `json:"brokerAddress"`
	Alive         bool   `json:"alive"`
}

func (a *app) runBrokerEpoch(cmd *cobra.Command, name string) error {
	return a.controllerCall(cmd, "replica info of "+name, remoting.ControllerGetReplicaInfo,
		map[string]string{"brokerName": name}, nil, func(resp *remoting.Command) error {
			set, err := body.DecodeSyncStateSet(resp.Body)
			if err != nil {
				return fmt.Errorf("replica info of %s: %w", name, err)
			}
			e := resp.ExtFields
			if a.json() {
				return printJSON(a.stdout, map[string]any{"brokerName": name, "masterBrokerId": e["masterBrokerId"],
					"masterAddress": e["masterAddress"], "masterEpoch": e["masterEpoch"],
					"syncStateSet": set.IDs, "syncStateSetEpoch": set.Epoch})
			}
			ids := make([]string, len(set.IDs))
			for i, id := range set.IDs {
				ids[i] = strconv.FormatInt(id, 10)
			}
			fmt.Fprintf(a.stdout, "Broker:             %s\nMaster:             %s %s\nMaster epoch:       %s\nSyncStateSet:       [%s]\nSyncStateSet epoch: %d\n",
				printable(name), printable(orDash(e["masterBrokerId"])), printable(orDash(e["masterAddress"])), printable(e["masterEpoch"]), strings.Join(ids, ","), set.Epoch)
			return nil
		})
}

func (a *app) runElect(cmd *cobra.Command, cluster, name, id string) error {
	if _, err := strconv.ParseInt(id, 10, 64); err != nil {
		return usagef("BROKER_ID %q: want an integer", id)
	}
	ext := map[string]string{"clusterName": cluster, "brokerName": name, "brokerId": id, "designateElect": "true"}
	return a.controllerCall(cmd, "elect "+name+"/"+id, remoting.ControllerElectMaster, ext, nil, func(resp *remoting.Command) error {
		e := resp.ExtFields
		fmt.Fprintf(a.stdout, "Master of %s: %s %s (master epoch %s, SyncStateSet epoch %s)\n",
			printable(name), printable(e["masterBrokerId"]), printable(e["masterAddress"]), printable(e["masterEpoch"]), printable(e["syncStateSetEpoch"]))
		return nil
	})
}

func (a *app) runClean(cmd *cobra.Command, cluster, name, ids string, living bool) error {
	ext := map[string]string{"clusterName": cluster, "brokerName": name, "isCleanLivingBroker": strconv.FormatBool(living)}
	if ids != "" {
		ext["brokerControllerIdsToClean"] = ids
	}
	return a.controllerCall(cmd, "clean "+name, remoting.CleanBrokerData, ext, nil, func(*remoting.Command) error {
		fmt.Fprintf(a.stdout, "Cleaned %s from the controller\n", name)
		return nil
	})
}
