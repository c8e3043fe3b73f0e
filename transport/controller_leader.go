package transport

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/body"
	"github.com/raftns/raftns/transport/remoting"
)

// serveAsLeader answers a controller request on the leader in office (the
// node calls it for requests taken here and for those followers forward).
// Semantics follow the reference controller's ReplicasInfoManager; the
// checks that need liveness run here, the ones on replicated state run
// again in the FSM.
func (c *controller) serveAsLeader(ctx context.Context, req *cluster.ControllerRequest) (*cluster.ControllerResponse, error) {
	f := &fields{ext: req.Ext}
	var resp *cluster.ControllerResponse
	var err error
	switch req.Code {
	case remoting.ControllerApplyBrokerID:
		resp, err = c.applyBrokerID(ctx, f)
	case remoting.ControllerGetNextBrokerID:
		resp, err = c.nextBrokerID(f)
	case remoting.ControllerRegisterBroker:
		resp, err = c.registerBroker(ctx, f)
	case remoting.ControllerElectMaster:
		resp, err = c.electMaster(ctx, f)
	case remoting.ControllerAlterSyncStateSet:
		resp, err = c.alterSyncStateSet(ctx, f, req.Body)
	case remoting.ControllerGetReplicaInfo:
		resp, err = c.replicaInfo(f)
	case remoting.ControllerGetSyncStateData:
		resp, err = c.syncStateData(req.Body)
	case remoting.CleanBrokerData:
		resp, err = c.cleanBrokerData(ctx, f)
	default:
		return answer(remoting.RequestCodeNotSupported, fmt.Sprintf(" request type %d not supported", req.Code)), nil
	}
	var ae *answerError
	if errors.As(err, &ae) {
		return answer(ae.code, ae.remark), nil
	}
	return resp, err
}

func answer(code int32, remark string) *cluster.ControllerResponse {
	return &cluster.ControllerResponse{Code: code, Remark: remark}
}

func ok(ext map[string]string, b []byte) *cluster.ControllerResponse {
	return &cluster.ControllerResponse{Code: remoting.Success, Ext: ext, Body: b}
}

// refusalCodes maps the FSM's refusals to the reference's response codes.
var refusalCodes = map[fsm.ControllerRefusal]int32{
	fsm.RefusalNotRegistered:           remoting.ControllerBrokerNeedToBeRegistered,
	fsm.RefusalBrokerIDInvalid:         remoting.ControllerBrokerIDInvalid,
	fsm.RefusalInvalidMaster:           remoting.ControllerInvalidMaster,
	fsm.RefusalFencedMasterEpoch:       remoting.ControllerFencedMasterEpoch,
	fsm.RefusalFencedSyncStateSetEpoch: remoting.ControllerFencedSyncStateSetEpoch,
	fsm.RefusalInvalidReplicas:         remoting.ControllerInvalidReplicas,
	fsm.RefusalAlterFailed:             remoting.ControllerAlterSyncStateSetFailed,
	fsm.RefusalStaleElection:           remoting.ControllerElectMasterFailed,
}

func refusal(r fsm.ControllerResult) *cluster.ControllerResponse {
	return answer(refusalCodes[r.Refusal], r.Remark)
}

func (c *controller) alive(g *fsm.ReplicaGroup, id int64) bool {
	return c.node.ReplicaAlive(cluster.ReplicaKey{Cluster: g.ClusterName, BrokerName: g.BrokerName, ID: id})
}

func (c *controller) applyBrokerID(ctx context.Context, f *fields) (*cluster.ControllerResponse, error) {
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	id := f.int64("appliedBrokerId")
	code := f.required("registerCheckCode")
	if err := f.check(); err != nil {
		return nil, err
	}
	addr, _, _ := strings.Cut(code, ";")
	res, err := c.node.ProposeController(ctx, fsm.ApplyBrokerIDType, &fsm.ApplyBrokerID{
		ClusterName: clusterName, BrokerName: name, BrokerID: id, Addr: addr, CheckCode: code})
	if err != nil {
		return nil, err
	}
	if res.Refusal != fsm.RefusalNone {
		return refusal(res), nil
	}
	return ok(map[string]string{"clusterName": clusterName, "brokerName": name}, nil), nil
}

func (c *controller) nextBrokerID(f *fields) (*cluster.ControllerResponse, error) {
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	next := fsm.FirstControllerBrokerID
	if g, found := c.s.fsm.ReplicaGroup(name); found {
		next = g.NextID
	}
	return ok(map[string]string{"clusterName": clusterName, "brokerName": name, "nextBrokerId": strconv.FormatInt(next, 10)}, nil), nil
}

func (c *controller) registerBroker(ctx context.Context, f *fields) (*cluster.ControllerResponse, error) {
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	id := f.int64("brokerId")
	addr := f.required("brokerAddress")
	if err := f.check(); err != nil {
		return nil, err
	}
	g, found := c.s.fsm.ReplicaGroup(name)
	if !found {
		return answer(remoting.ControllerBrokerNeedToBeRegistered, fmt.Sprintf("Broker-set: %s hasn't been registered in controller", name)), nil
	}
	b, found := g.Broker(id)
	if !found {
		return answer(remoting.ControllerBrokerNeedToBeRegistered, fmt.Sprintf("BrokerId: %d hasn't been registered in broker-set: %s", id, name)), nil
	}
	ext := map[string]string{"clusterName": clusterName, "brokerName": name}
	if g.HasMaster && c.alive(&g, g.MasterID) {
		masterFields(ext, &g)
		ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
	}
	resp := ok(ext, body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch))
	if b.Addr != addr {
		res, err := c.node.ProposeController(ctx, fsm.UpdateBrokerAddressType, &fsm.UpdateBrokerAddress{BrokerName: name, BrokerID: id, Addr: addr})
		if err != nil {
			return nil, err
		}
		if res.Refusal != fsm.RefusalNone {
			return refusal(res), nil
		}
	}
	return resp, nil
}

func masterFields(ext map[string]string, g *fsm.ReplicaGroup) {
	if g.HasMaster {
		ext["masterBrokerId"] = strconv.FormatInt(g.MasterID, 10)
		ext["masterAddress"] = g.MasterAddr()
	}
	ext["masterEpoch"] = itoa32(g.MasterEpoch)
}

func itoa32(v int32) string { return strconv.FormatInt(int64(v), 10) }

func (c *controller) electMaster(ctx context.Context, f *fields) (*cluster.ControllerResponse, error) {
	f.str("clusterName")
	name := f.required("brokerName")
	id, hasID := f.optInt64("brokerId")
	designate := f.boolean("designateElect")
	if err := f.check(); err != nil {
		return nil, err
	}
	req := cluster.ElectRequest{BrokerName: name, HasBrokerID: hasID && id >= 0, BrokerID: id, Designate: designate}
	outcome, g, err := c.node.ElectMaster(ctx, req)
	if err != nil {
		return nil, err
	}
	ext := map[string]string{}
	switch outcome {
	case cluster.ElectedNew:
		masterFields(ext, &g)
		ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
		group := &fsm.BrokerMemberGroup{Cluster: g.ClusterName, BrokerName: g.BrokerName, BrokerAddrs: map[int64]string{}}
		for _, b := range g.Brokers {
			group.BrokerAddrs[b.ID] = b.Addr
		}
		return ok(ext, body.EncodeElectMasterResponseBody(group, g.SyncStateSet)), nil
	case cluster.MasterStillAlive:
		masterFields(ext, &g)
		ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
		return &cluster.ControllerResponse{Code: remoting.ControllerMasterStillExist,
			Remark: fmt.Sprintf("The old master %d is still alive, not need to elect new master for broker %s", g.MasterID, name),
			Ext:    ext, Body: body.EncodeElectMasterResponseBody(nil, g.SyncStateSet)}, nil
	case cluster.GroupUnknown:
		return answer(remoting.ControllerBrokerNeedToBeRegistered, "Broker hasn't been registered"), nil
	case cluster.NoCandidate:
		if !req.HasBrokerID {
			return answer(remoting.ControllerMasterNotAvailable, "Old master has down and failed to elect a new broker master"), nil
		}
	}
	return answer(remoting.ControllerElectMasterFailed, "Failed to elect a new master"), nil
}

func (c *controller) alterSyncStateSet(ctx context.Context, f *fields, b []byte) (*cluster.ControllerResponse, error) {
	name := f.required("brokerName")
	master := f.int64("masterBrokerId")
	masterEpoch := f.int64("masterEpoch")
	if err := f.check(); err != nil {
		return nil, err
	}
	set, err := body.DecodeSyncStateSet(b)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	if g, found := c.s.fsm.ReplicaGroup(name); found {
		for _, id := range set.IDs {
			if _, registered := g.Broker(id); registered && !c.alive(&g, id) {
				return answer(remoting.ControllerBrokerNotAlive,
					fmt.Sprintf("Rejecting alter syncStateSet request because the replicas {%d} don't alive", id)), nil
			}
		}
	}
	res, err := c.node.ProposeController(ctx, fsm.AlterSyncStateSetType, &fsm.AlterSyncStateSet{
		BrokerName: name, MasterID: master, MasterEpoch: int32(masterEpoch),
		SyncStateSetEpoch: set.Epoch, NewSyncStateSet: set.IDs})
	if err != nil {
		return nil, err
	}
	if res.Refusal != fsm.RefusalNone {
		return refusal(res), nil
	}
	g := res.Group
	return ok(map[string]string{"newSyncStateSetEpoch": itoa32(g.SyncStateSetEpoch)},
		body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}

func (c *controller) replicaInfo(f *fields) (*cluster.ControllerResponse, error) {
	name := f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	g, found := c.s.fsm.ReplicaGroup(name)
	if !found {
		return answer(remoting.ControllerBrokerMetadataNotExist, "Broker metadata is not existed"), nil
	}
	ext := map[string]string{}
	masterFields(ext, &g)
	return ok(ext, body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}

func (c *controller) syncStateData(b []byte) (*cluster.ControllerResponse, error) {
	if len(b) == 0 {
		return ok(nil, nil), nil
	}
	names, err := body.DecodeStringList(b)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	if len(names) == 0 {
		return ok(nil, nil), nil
	}
	infos := map[string]body.ReplicasInfo{}
	var listed []string
	for _, name := range names {
		g, found := c.s.fsm.ReplicaGroup(name)
		if _, dup := infos[name]; !found || dup {
			continue
		}
		info := body.ReplicasInfo{HasMaster: g.HasMaster, MasterBrokerID: g.MasterID, MasterAddr: g.MasterAddr(),
			MasterEpoch: g.MasterEpoch, SyncStateSetEpoch: g.SyncStateSetEpoch,
			InSync: []body.ReplicaIdentity{}, NotInSync: []body.ReplicaIdentity{}}
		for _, rb := range g.Brokers {
			r := body.ReplicaIdentity{BrokerName: name, BrokerID: rb.ID, Addr: rb.Addr, Alive: c.alive(&g, rb.ID)}
			if g.InSyncStateSet(rb.ID) {
				info.InSync = append(info.InSync, r)
			} else {
				info.NotInSync = append(info.NotInSync, r)
			}
		}
		infos[name] = info
		listed = append(listed, name)
	}
	return ok(nil, body.EncodeBrokerReplicasInfo(listed, infos)), nil
}

func (c *controller) cleanBrokerData(ctx context.Context, f *fields) (*cluster.ControllerResponse, error) {
	clusterName, name := f.str("clusterName"), f.required("brokerName")
	idsText := strings.TrimSpace(f.str("brokerControllerIdsToClean"))
	cleanLiving := f.boolean("isCleanLivingBroker")
	if err := f.check(); err != nil {
		return nil, err
	}
	g, found := c.s.fsm.ReplicaGroup(name)
	var ids []int64
	if idsText != "" {
		for _, part := range strings.Split(idsText, ";") {
			id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			if err != nil {
				return answer(remoting.ControllerInvalidCleanBrokerMetadata,
					fmt.Sprintf("Please set the option <brokerControllerIdsToClean> according to the format, exception: %v", err)), nil
			}
			ids = append(ids, id)
		}
	}
	if !cleanLiving && found {
		if len(ids) == 0 && g.HasMaster {
			return answer(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf("Broker %s is still alive, clean up failure", name)), nil
		}
		if clusterName == "" {
			clusterName = g.ClusterName
		}
		for _, id := range ids {
			if c.node.ReplicaAlive(cluster.ReplicaKey{Cluster: clusterName, BrokerName: name, ID: id}) {
				return answer(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf("Broker [%s,  %d] is still alive, clean up failure", name, id)), nil
			}
		}
	}
	if !found {
		return answer(remoting.ControllerInvalidCleanBrokerMetadata, fmt.Sprintf("Broker %s is not existed,clean broker data failure.", name)), nil
	}
	res, err := c.node.ProposeController(ctx, fsm.CleanBrokerDataType, &fsm.CleanBrokerData{BrokerName: name, BrokerIDs: ids})
	if err != nil {
		return nil, err
	}
	if res.Refusal != fsm.RefusalNone {
		return refusal(res), nil
	}
	return ok(nil, nil), nil
}
