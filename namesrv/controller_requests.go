package namesrv

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// controllerRows are the controller's request codes, served while the
// controller is on: the access class and the handler of each. A request
// the leader decides has its handler below: it decodes the header and body
// into a typed request, has the controller decide it on the leader, and
// encodes the answer as the reference controller does; a refusal comes
// back as a *state.Refused error (errors.go).
var controllerRows = []controllerRow{
	{remoting.ControllerGetMetadataInfo, acl.Read, (*controllerPort).getMetadata},
	{remoting.UpdateControllerConfig, acl.AdminWrite, (*controllerPort).updateConfig},
	{remoting.GetControllerConfig, acl.Read, (*controllerPort).getConfig},
	{remoting.ControllerApplyBrokerID, acl.Write, (*controllerPort).applyBrokerID},
	{remoting.ControllerGetNextBrokerID, acl.Read, (*controllerPort).nextBrokerID},
	{remoting.ControllerRegisterBroker, acl.Write, (*controllerPort).registerBroker},
	{remoting.ControllerElectMaster, acl.Write, (*controllerPort).electMaster},
	{remoting.ControllerAlterSyncStateSet, acl.Write, (*controllerPort).alterSyncStateSet},
	{remoting.ControllerGetReplicaInfo, acl.Read, (*controllerPort).replicaInfo},
	{remoting.ControllerGetSyncStateData, acl.Read, (*controllerPort).syncStateData},
	{remoting.CleanBrokerData, acl.AdminWrite, (*controllerPort).cleanBrokerData},
}

// applyBrokerID is CONTROLLER_APPLY_BROKER_ID: the broker claims an id; the
// leader commits it.
func (c *controllerPort) applyBrokerID(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	id := f.int64("appliedBrokerId")
	code := f.required("registerCheckCode")
	if err := f.check(); err != nil {
		return nil, err
	}
	addr, _, _ := strings.Cut(code, ";")
	if err := c.ctrl.ApplyBrokerID(ctx, controller.ApplyBrokerID{ClusterName: clusterName, BrokerName: name, BrokerID: id, Addr: addr, CheckCode: code}); err != nil {
		return nil, err
	}
	return answer(req, map[string]string{"clusterName": clusterName, "brokerName": name}, nil), nil
}

// nextBrokerID is CONTROLLER_GET_NEXT_BROKER_ID: the id the next broker of a
// group should claim.
func (c *controllerPort) nextBrokerID(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	next, err := c.ctrl.NextBrokerID(ctx, controller.NextBrokerID{ClusterName: clusterName, BrokerName: name})
	if err != nil {
		return nil, err
	}
	return answer(req, map[string]string{"clusterName": clusterName, "brokerName": name, "nextBrokerId": strconv.FormatInt(next, 10)}, nil), nil
}

// registerBroker is CONTROLLER_REGISTER_BROKER: a broker with an id
// registers its address; the answer names the master only while the leader
// counts it alive.
func (c *controllerPort) registerBroker(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	id := f.int64("brokerId")
	addr := f.required("brokerAddress")
	if err := f.check(); err != nil {
		return nil, err
	}
	reg, err := c.ctrl.RegisterBroker(ctx, controller.RegisterBroker{ClusterName: clusterName, BrokerName: name, BrokerID: id, Addr: addr})
	if err != nil {
		return nil, err
	}
	g := &reg.Group
	ext := map[string]string{"clusterName": clusterName, "brokerName": name}
	if reg.MasterAlive {
		masterFields(ext, g)
		ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
	}
	return answer(req, ext, body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}

// electMaster is CONTROLLER_ELECT_MASTER: an election in the group, or
// CONTROLLER_MASTER_STILL_EXIST when the master stays.
func (c *controllerPort) electMaster(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	f.str("clusterName")
	name := f.required("brokerName")
	id, hasID := f.optInt64("brokerId")
	designate := f.boolean("designateElect")
	if err := f.check(); err != nil {
		return nil, err
	}
	e, err := c.ctrl.ElectMaster(ctx, controller.ElectRequest{BrokerName: name, HasBrokerID: hasID && id >= 0, BrokerID: id, Designate: designate})
	if err != nil {
		return nil, err
	}
	g := &e.Group
	ext := map[string]string{}
	masterFields(ext, g)
	ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
	if e.MasterStillAlive {
		resp := remoting.NewResponse(req, remoting.ControllerMasterStillExist, state.MasterStillAliveRemark(g))
		resp.ExtFields, resp.Body = ext, body.EncodeElectMasterResponseBody(nil, g.SyncStateSet)
		return resp, nil
	}
	group := &state.BrokerMemberGroup{Cluster: g.ClusterName, BrokerName: g.BrokerName, BrokerAddrs: map[int64]string{}}
	for _, b := range g.Brokers {
		group.BrokerAddrs[b.ID] = b.Addr
	}
	return answer(req, ext, body.EncodeElectMasterResponseBody(group, g.SyncStateSet)), nil
}

// alterSyncStateSet is CONTROLLER_ALTER_SYNC_STATE_SET from the group's
// master.
func (c *controllerPort) alterSyncStateSet(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	name := f.required("brokerName")
	master := f.int64("masterBrokerId")
	masterEpoch := f.int64("masterEpoch")
	if err := f.check(); err != nil {
		return nil, err
	}
	set, err := body.DecodeSyncStateSet(req.Body)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	g, err := c.ctrl.AlterSyncStateSet(ctx, controller.AlterSyncStateSet{BrokerName: name, MasterID: master, MasterEpoch: int32(masterEpoch),
		SyncStateSetEpoch: set.Epoch, NewSyncStateSet: set.IDs})
	if err != nil {
		return nil, err
	}
	return answer(req, map[string]string{"newSyncStateSetEpoch": itoa32(g.SyncStateSetEpoch)},
		body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}

// replicaInfo is CONTROLLER_GET_REPLICA_INFO: the group's master and
// SyncStateSet.
func (c *controllerPort) replicaInfo(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	name := f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	g, err := c.ctrl.ReplicaInfo(ctx, controller.GetReplicaInfo{BrokerName: name})
	if err != nil {
		return nil, err
	}
	ext := map[string]string{}
	masterFields(ext, &g)
	return answer(req, ext, body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}

// syncStateData is CONTROLLER_GET_SYNC_STATE_DATA: the replicas of the named
// groups, alive or not, in or out of sync.
func (c *controllerPort) syncStateData(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	var names []string
	if len(req.Body) > 0 {
		var err error
		if names, err = body.DecodeStringList(req.Body); err != nil {
			return nil, badRequest(err.Error())
		}
	}
	states, err := c.ctrl.SyncStateData(ctx, controller.GetSyncStateData{BrokerNames: names})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return success(req), nil
	}
	infos := map[string]body.ReplicasInfo{}
	var listed []string
	for _, st := range states {
		g := &st.Group
		info := body.ReplicasInfo{HasMaster: g.HasMaster, MasterBrokerID: g.MasterID, MasterAddr: g.MasterAddr(),
			MasterEpoch: g.MasterEpoch, SyncStateSetEpoch: g.SyncStateSetEpoch,
			InSync: []body.ReplicaIdentity{}, NotInSync: []body.ReplicaIdentity{}}
		for _, rb := range g.Brokers {
			r := body.ReplicaIdentity{BrokerName: g.BrokerName, BrokerID: rb.ID, Addr: rb.Addr, Alive: slices.Contains(st.Alive, rb.ID)}
			if g.InSyncStateSet(rb.ID) {
				info.InSync = append(info.InSync, r)
			} else {
				info.NotInSync = append(info.NotInSync, r)
			}
		}
		infos[g.BrokerName] = info
		listed = append(listed, g.BrokerName)
	}
	return answer(req, nil, body.EncodeBrokerReplicasInfo(listed, infos)), nil
}

// cleanBrokerData is CLEAN_BROKER_DATA: forget brokers of a group, or the
// whole group.
func (c *controllerPort) cleanBrokerData(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.str("clusterName"), f.required("brokerName")
	idsText := strings.TrimSpace(f.str("brokerControllerIdsToClean"))
	cleanLiving := f.boolean("isCleanLivingBroker")
	if err := f.check(); err != nil {
		return nil, err
	}
	var ids []int64
	if idsText != "" {
		for _, part := range strings.Split(idsText, ";") {
			id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			if err != nil {
				return nil, state.RefuseCleanIDs(err)
			}
			ids = append(ids, id)
		}
	}
	err := c.ctrl.CleanBrokerData(ctx, controller.CleanBrokerData{ClusterName: clusterName, BrokerName: name, BrokerIDs: ids, CleanLiving: cleanLiving})
	if err != nil {
		return nil, err
	}
	return success(req), nil
}
