package namesrv

import (
	"context"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// registerBroker is REGISTER_BROKER (103). An unchanged registration is a
// heartbeat answered locally; a changed one is applied by the leader. An
// unchanged registration the member accepted before, with nothing changed
// since, is recognised from its fingerprint without decoding. The parts of
// a split registration are recognised as such (splitRounds).
func (s *Server) registerBroker(ctx context.Context, c *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	deleting := s.cfg.Settings.Bool(PropDeleteTopicWithBrokerRegistration, false)
	if deleting {
		// Split rounds compare with the broker's registered data version.
		if err := s.cluster.AwaitVisible(ctx); err != nil {
			return nil, err
		}
	}
	gen := s.fsm.Generation()
	key, sum := s.regCache.fingerprint(req)
	if e, ok := s.regCache.lookup(key, sum, gen); ok && s.cluster.RegisterUnchanged(key) {
		id, _ := strconv.ParseInt(strings.TrimSpace(req.ExtFields["brokerId"]), 10, 64) // valid: accepted before
		s.attachBroker(c, key, req.ExtFields["brokerName"], id)
		if err := s.unchangedPart(ctx, key, sum, e, deleting); err != nil {
			return nil, err
		}
		return s.registerResponse(req, e.res), nil
	}
	acct := s.cfg.Remoting.Budget.NewAccount(ctx, s.cfg.Remoting.BudgetWait)
	defer acct.Close()
	cmd, err := s.decodeRegistration(req, acct)
	if err != nil {
		return nil, err
	}
	sh := s.rounds.shape(cmd)
	step := s.rounds.observe(key, sh, cmd, deleting, s.liveDataVersion)
	cmd.Continuation, cmd.DeleteUnlistedTopics = step.continuation, step.deleteUnlisted
	res, err := s.cluster.Register(ctx, cmd)
	if err != nil {
		return nil, err
	}
	if step.whole != nil {
		// The end of a round: the whole table deletes what it no longer
		// lists (a heartbeat when nothing is to go).
		if _, err := s.cluster.Register(ctx, step.whole); err != nil {
			return nil, err
		}
	}
	e := regCacheEntry{gen: gen, res: res, shape: sh}
	if deleting {
		e.cmd = cmd
	}
	s.regCache.store(key, sum, e)
	s.attachBroker(c, cmd.Key(), cmd.BrokerName, cmd.BrokerID)
	return s.registerResponse(req, res), nil
}

// unchangedPart tells the split-round tracker of a registration recognised
// from its fingerprint. With deletion on, it may be the end of a round,
// whose whole table is then checked against the state, or the registration
// that shows the broker sends whole tables, which is then applied as one.
func (s *Server) unchangedPart(ctx context.Context, key state.BrokerKey, sum uint64, e regCacheEntry, deleting bool) error {
	step := s.rounds.observe(key, e.shape, e.cmd, deleting, s.liveDataVersion)
	if step.whole != nil {
		_, err := s.cluster.Register(ctx, step.whole)
		return err
	}
	if !step.deleteUnlisted || e.cmd == nil || e.cmd.DeleteUnlistedTopics {
		return nil
	}
	again := *e.cmd
	again.DeleteUnlistedTopics = true
	gen := s.fsm.Generation()
	res, err := s.cluster.Register(ctx, &again)
	if err == nil {
		s.regCache.store(key, sum, regCacheEntry{gen: gen, res: res, shape: e.shape, cmd: &again})
	}
	return err
}

// liveDataVersion is the DataVersion the state holds for a broker, or nil.
func (s *Server) liveDataVersion(key state.BrokerKey) *state.DataVersion {
	if reg, ok := s.fsm.Registration(key); ok {
		return &reg.DataVersion
	}
	return nil
}

// attachBroker records that the broker registered on c, logging the first
// time it does on this connection.
func (s *Server) attachBroker(c *remoting.Conn, key state.BrokerKey, name string, id int64) {
	if s.brokers.attach(key, c) {
		// remote is the PROXY protocol's client address when a load
		// balancer sent one.
		s.logger.Info("broker registered on this connection", "cluster", key.Cluster, "broker", name,
			"id", id, "addr", key.Addr, "remote", c.RemoteAddr())
	}
}

// registerResponse is the answer to an accepted registration.
func (s *Server) registerResponse(req *remoting.Command, res state.RegisterResult) *remoting.Command {
	resp := success(req)
	resp.ExtFields = map[string]string{}
	if res.MasterAddr != "" {
		resp.ExtFields["masterAddr"] = res.MasterAddr
		resp.ExtFields["haServerAddr"] = res.HaServerAddr
	}
	if res.HasOrderTopicConfig && s.cfg.Settings.Bool(PropReturnOrderTopicConfigToBroker, true) {
		resp.Body = body.EncodeKVTable(res.OrderTopicConfig)
	}
	return resp
}

// decodeRegistration checks the header and the body of a registration.
// The inflated body is charged to acct.
func (s *Server) decodeRegistration(req *remoting.Command, acct *membudget.Account) (*state.RegisterBroker, error) {
	f := headerFields(req)
	name, key := f.broker()
	cmd := &state.RegisterBroker{
		BrokerName:   name,
		BrokerAddr:   key.Addr,
		ClusterName:  key.Cluster,
		HaServerAddr: f.required("haServerAddr"),
		BrokerID:     f.int64("brokerId"),
		ZoneName:     f.str("__ZONE_NAME"),
	}
	cmd.HeartbeatTimeoutMillis, _ = f.optInt64("heartbeatTimeoutMillis")
	cmd.EnableActingMaster, cmd.HasEnableActingMaster = f.optBool("enableActingMaster")
	crc, hasCRC := f.optInt64("bodyCrc32")
	if err := f.check(); err != nil {
		return nil, err
	}
	if req.Version < 0 {
		return nil, badRequest("invalid request version " + strconv.Itoa(int(req.Version)))
	}
	if hasCRC && crc != 0 && int64(crc32.ChecksumIEEE(req.Body)&0x7FFFFFFF) != crc {
		return nil, badRequest("crc32 not match")
	}
	rb, err := body.DecodeRegisterBodyLimited(req.Body, f.boolean("compressed"), req.Version, s.inflation(acct))
	if err != nil {
		return nil, bodyError(err)
	}
	cmd.DataVersion = rb.DataVersion
	cmd.TopicConfigs = rb.TopicConfigs
	cmd.HasFilterServerList, cmd.FilterServerList = rb.HasFilterServerList, rb.FilterServerList
	cmd.MappingInfos = rb.MappingInfos
	return cmd, nil
}

// unregisterBroker is UNREGISTER_BROKER (104). Unlike 5.x it answers once
// the removal is committed.
func (s *Server) unregisterBroker(ctx context.Context, c *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	name, key := f.broker()
	cmd := &state.UnregisterBroker{BrokerName: name, BrokerAddr: key.Addr, ClusterName: key.Cluster, BrokerID: f.int64("brokerId")}
	if err := f.check(); err != nil {
		return nil, err
	}
	if _, err := s.cluster.Apply(ctx, fsm.UnregisterBrokerType, cmd); err != nil {
		return nil, err
	}
	s.regCache.forget(key)
	s.rounds.forget(key)
	s.brokers.detach(key, c)
	return success(req), nil
}

// queryDataVersion is QUERY_DATA_VERSION (322): a heartbeat that also tells
// the broker whether the name server's copy of its DataVersion differs.
func (s *Server) queryDataVersion(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	_, key := f.broker()
	f.int64("brokerId")
	if err := f.check(); err != nil {
		return nil, err
	}
	changed := true
	var sent state.DataVersion
	if len(req.Body) > 0 {
		var err error
		if sent, err = body.DecodeDataVersion(req.Body, -1); err != nil {
			return nil, badRequest(err.Error())
		}
	}
	reg, known := s.fsm.Registration(key)
	if known && len(req.Body) > 0 {
		changed = !reg.DataVersion.Equal(sent)
	}
	s.cluster.Heartbeat(key)
	resp := success(req)
	resp.ExtFields = map[string]string{"changed": strconv.FormatBool(changed)}
	if known {
		resp.Body = body.EncodeDataVersion(reg.DataVersion)
	}
	return resp, nil
}

// brokerHeartbeat is BROKER_HEARTBEAT (904, 5.x).
// With a broker id it is also a controller heartbeat.
func (s *Server) brokerHeartbeat(_ context.Context, c *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	name, key := f.broker()
	if err := f.check(); err != nil {
		return nil, err
	}
	if err := s.ctrl.heardReplica(c, f, key, name); err != nil {
		return nil, err
	}
	s.cluster.Heartbeat(key)
	return success(req), nil
}
