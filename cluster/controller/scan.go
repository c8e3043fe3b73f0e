package controller

import (
	"context"
	"time"

	"github.com/raftns/raftns/cluster"
)

// scanInterval is how often the leader checks masters' leases between
// connection events.
const scanInterval = time.Second

// scanTerm is the master scan of one term of office.
type scanTerm struct {
	office     cluster.Office
	stop, done chan struct{}
}

// TakeOffice starts the master scan for the term of office
// (cluster.OfficeHook).
func (c *Controller) TakeOffice(o cluster.Office) {
	t := &scanTerm{office: o, stop: make(chan struct{}), done: make(chan struct{})}
	c.termMu.Lock()
	c.term = t
	c.termMu.Unlock()
	go func() {
		defer close(t.done)
		c.watchMasters(o, t.stop)
	}()
}

// LeaveOffice stops the master scan and waits until it has.
func (c *Controller) LeaveOffice() {
	c.termMu.Lock()
	t := c.term
	c.term = nil
	c.termMu.Unlock()
	if t == nil {
		return
	}
	close(t.stop)
	<-t.done
}

// watchMasters scans every scanInterval, at once when a broker connection
// closes, and when connection closes seen around taking office start to
// count (docs/operators/controller.md, "Liveness").
func (c *Controller) watchMasters(o cluster.Office, stop <-chan struct{}) {
	masters := time.NewTicker(scanInterval)
	defer masters.Stop()
	settled := time.After(time.Until(c.live.ReplicasSettleAt()))
	margin := time.After(cluster.ReplicaSettleMargin)
	for {
		select {
		case <-stop:
			return
		case <-masters.C:
			c.scanMasters(o)
		case <-o.ConnClosed():
			c.scanMasters(o)
		case <-settled:
			c.scanMasters(o)
		case <-margin:
			c.scanMasters(o)
		}
	}
}

// scanMasters elects a new master for every group whose master the leader
// no longer counts as active. It runs within the term of office that
// decided, after verifying leadership.
func (c *Controller) scanMasters(o cluster.Office) {
	groups := c.fsm.ReplicaGroups()
	c.live.PruneReplicas(groups)
	for _, g := range groups {
		if !g.HasMaster || c.alive(&g, g.MasterID) {
			continue
		}
		if !o.Held() {
			return
		}
		if err := o.VerifyLeader(); err != nil {
			c.logger.Warn("not electing: leadership not verified", "error", err)
			return
		}
		c.logger.Info("broker master inactive, electing", "broker", g.BrokerName, "master", g.MasterID, "addr", g.MasterAddr())
		ctx, cancel := context.WithTimeout(context.Background(), o.ApplyTimeout())
		_, _, err := c.elect(ctx, ElectRequest{BrokerName: g.BrokerName})
		cancel()
		if err != nil {
			c.logger.Error("election failed", "broker", g.BrokerName, "error", err)
		}
	}
}
