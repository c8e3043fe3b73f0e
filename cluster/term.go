package cluster

import (
	"time"
)

// leaderLoop takes office in order: Barrier, rebuild liveness with every
// registered broker just heard from, start the expiry scan, accept writes.
func (n *Node) leaderLoop(stop chan struct{}) {
	if !n.tenure.barrier(stop) {
		return
	}
	n.lessor.Promote(n.raft.LastIndex())

	scan := time.NewTicker(n.cfg.ScanInterval)
	defer scan.Stop()
	house := time.NewTicker(leaderHousekeep)
	defer house.Stop()

	n.tenure.enter()
	n.ready.takeOffice(time.Now())
	n.members.drains.reset()
	defer n.ready.leaveOffice()
	n.logger.Info("leader ready", "brokers", len(n.fsm.Registrations()))
	n.members.reconcileMemberDirectory(true)
	refresh := time.NewTicker(n.cfg.DirectoryRefresh)
	defer refresh.Stop()
	leave := n.offices.take(n, n.lessor.Epoch())
	defer leave()
	readmitted := make(chan struct{})
	go func() {
		defer close(readmitted)
		n.members.readmitLoop(stop)
	}()
	defer func() { <-readmitted }()
	for {
		select {
		case <-stop:
			return
		case <-scan.C:
			n.expiry.Scan()
		case <-n.expiry.ScanRequests():
			n.expiry.Scan()
		case <-house.C:
			n.members.finishDrains()
			n.members.promoteCaughtUpNonvoters()
			n.members.reconcileMemberDirectory(false)
		case <-refresh.C:
			// Re-read every member's addresses, so one restarted with new
			// client or admin addresses is republished.
			n.members.reconcileMemberDirectory(true)
		}
	}
}
