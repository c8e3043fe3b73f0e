package namesrv

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// NotifyMinBrokerIDChange is the request code of the notice (Java
// RequestCode.NOTIFY_MIN_BROKER_ID_CHANGE).
const NotifyMinBrokerIDChange int32 = 905

// minIDNoticeTimeout bounds sending one notice to one broker, as the
// reference's 300 ms oneway.
const minIDNoticeTimeout = 300 * time.Millisecond

// minIDNotifier sends the NOTIFY_MIN_BROKER_ID_CHANGE notices the FSM
// recorded. It runs on every member but acts only on the ready leader. For
// each pending notice it first commits AckMinBrokerIDNotice, which clears
// the notice exactly once cluster-wide, and sends only when its own ack was
// the one that cleared it and it is still the leader: a notice is sent at
// most once, even when leadership changes between the change and the send
// (a leader that dies between its ack and its send loses that notice). With
// notifyMinBrokerIdChanged off the notices are cleared without sending.
type minIDNotifier struct {
	cluster  Cluster
	settings *Settings
	client   *remoting.Client
	logger   hclog.Logger
	interval time.Duration
	timeout  time.Duration
	rounds   atomic.Uint64 // completed polls, for tests
}

// run polls for pending notices until stop is closed.
func (n *minIDNotifier) run(stop <-chan struct{}) {
	defer n.client.Close()
	poll.Every(n.interval, stop, func() {
		if n.cluster.LeaderReady() {
			n.flush(stop)
		}
		n.rounds.Add(1)
	})
}

// flush acknowledges and sends every pending notice; a failed ack leaves
// the notice for the next round.
func (n *minIDNotifier) flush(stop <-chan struct{}) {
	for _, notice := range n.cluster.FSM().PendingMinBrokerIDNotices() {
		select {
		case <-stop:
			return
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
		res, err := n.cluster.ApplyLeaderOnly(ctx, fsm.AckMinBrokerIDNoticeType|fsm.IgnoreUnknownTypeFlag,
			&state.AckMinBrokerIDNotice{BrokerName: notice.BrokerName, Index: notice.Index})
		cancel()
		if err != nil {
			n.logger.Debug("min broker id notice not acknowledged, will retry", "broker", notice.BrokerName, "error", err)
			return
		}
		if ack, ok := res.(state.AckResult); !ok || !ack.Cleared || !n.cluster.LeaderReady() {
			continue
		}
		if !n.settings.Bool(PropNotifyMinBrokerIDChanged, false) {
			continue
		}
		n.send(notice)
	}
}

// send writes the notice oneway to each target, as the reference does.
func (n *minIDNotifier) send(notice state.MinBrokerIDNotice) {
	ext := map[string]string{
		"minBrokerId":   strconv.FormatInt(notice.MinBrokerID, 10),
		"minBrokerAddr": notice.MinBrokerAddr,
	}
	if notice.OfflineBrokerAddr != "" {
		ext["offlineBrokerAddr"] = notice.OfflineBrokerAddr
	}
	if notice.HaBrokerAddr != "" {
		ext["haBrokerAddr"] = notice.HaBrokerAddr
	}
	req := &remoting.Command{Code: NotifyMinBrokerIDChange, Language: "JAVA", Version: remoting.ServerVersion, ExtFields: ext}
	n.logger.Info("min broker id changed, notifying", "broker", notice.BrokerName, "min_id", notice.MinBrokerID,
		"min_addr", notice.MinBrokerAddr, "offline", notice.OfflineBrokerAddr, "targets", notice.Targets)
	for _, addr := range notice.Targets {
		ctx, cancel := context.WithTimeout(context.Background(), minIDNoticeTimeout)
		if err := n.client.InvokeOneway(ctx, addr, req); err != nil {
			n.logger.Warn("min broker id notice not delivered", "broker", notice.BrokerName, "addr", addr, "error", err)
		}
		cancel()
	}
}
