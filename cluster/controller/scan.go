package controller

import (
	"time"

	"github.com/raftns/raftns/cluster"
)

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

// watchMasters scans every controllerScanInterval, at once when a broker connection
// closes, and when connection closes seen around taking office start to
// count (docs/controller.md, "Liveness").
func (c *Controller) watchMasters(o cluster.Office, stop <-chan struct{}) {
	masters := time.NewTicker(controllerScanInterval)
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
