package cluster

import (
	"context"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
)

// Join admits a member as a non-voter; the leader promotes it once it has
// caught up (docs/contributors/design.md, "Membership"). A follower passes the request
// to the leader. Joining again with the same ID and address changes
// nothing. The result says what happened.
func (n *Node) Join(ctx context.Context, id, addr string) (string, error) {
	return n.join(ctx, id, addr, false)
}

// join is Join; nonVoter keeps the member a non-voter.
func (n *Node) join(ctx context.Context, id, addr string, nonVoter bool) (string, error) {
	res, err := n.onLeader(ctx, leaderOp{
		method:  "JoinAsLeader",
		args:    func() (any, error) { return &JoinArgs{ID: id, ClusterAddr: addr, NonVoter: nonVoter}, nil },
		local:   func(context.Context) (any, error) { return n.members.joinAsLeader(id, addr, nonVoter) },
		decode:  func(b []byte) (any, error) { return string(b), nil },
		visible: true,
	})
	outcome, _ := res.(string)
	return outcome, err
}

// AddPeer is the operator's "peers add": Join under another name, refused
// when the member runs a release older than the cluster version. It
// succeeds only once the member runs as part of the cluster (waitRunning).
func (n *Node) AddPeer(ctx context.Context, id, addr string, opts AddOptions) (string, error) {
	if opts.NonVoter {
		if err := n.Gate().Check(feature.StorageIdentity); err != nil {
			return "", err
		}
	}
	if err := n.admitsPeer(ctx, id, addr); err != nil {
		return "", err
	}
	outcome, err := n.join(ctx, id, addr, opts.NonVoter)
	if err != nil {
		return "", err
	}
	if err := n.waitRunning(ctx, id, addr); err != nil {
		return "", err
	}
	return outcome, nil
}

// RemovePeer removes a member. It refuses a removal that would leave fewer
// connected voters than a quorum, and going from two voters to one, unless
// opts.Force is set. With a drain (docs/operators/operations.md, "Adding and
// removing members without touching brokers and clients") it only starts
// it: every member stops listing the member in the address service at
// once, and the leader removes it when the drain is over; the answer says
// which. Removing the leader transfers leadership first; the new leader
// then performs the removal. Any member may be asked: it passes the
// request to the leader. A member removing itself does not wait to apply
// the removal, which the leader no longer replicates to it.
func (n *Node) RemovePeer(ctx context.Context, id string, opts RemoveOptions) (adminapi.RemovePeer, error) {
	res, err := n.onLeader(ctx, leaderOp{
		method:  "Remove",
		args:    func() (any, error) { return removeArgs(id, opts), nil },
		local:   func(ctx context.Context) (any, error) { return n.members.removeAsLeader(ctx, id, opts) },
		decode:  decodeRemoveResult,
		visible: id != n.cfg.ID,
	})
	out, _ := res.(adminapi.RemovePeer)
	return out, err
}

// TransferLeadership hands leadership to the member id, or to the most
// up-to-date voter when id is empty. Any member may be asked: it passes
// the request to the leader. The request moves leadership off the leader
// this member knew when asked, once: found moved as asked on a retry, it
// is done.
func (n *Node) TransferLeadership(ctx context.Context, id string) error {
	from, _ := n.Leader()
	_, err := n.onLeader(ctx, leaderOp{
		method:  "Transfer",
		args:    func() (any, error) { return &TransferArgs{ID: id, From: from}, nil },
		local:   func(context.Context) (any, error) { return nil, n.members.transferFrom(from, id) },
		visible: true,
	})
	return err
}

// StepDown hands this member's leadership to the most up-to-date voter; it
// never acts on another member (ErrNotLeader when this one does not lead).
func (n *Node) StepDown() error { return n.members.transferAsLeader("") }
