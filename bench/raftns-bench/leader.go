package main

import (
	"context"
	"fmt"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// leader waits for a member that reports itself leader in office.
func (e *env) leader(ctx context.Context) (*member, error) {
	if len(e.members) == 1 {
		return e.members[0], nil
	}
	var leader *member
	err := launch.Poll(ctx, readyTimeout, 20*time.Millisecond, "a leader", func() (bool, error) {
		for _, m := range e.members {
			if m.Exited() {
				continue
			}
			if st, err := m.Status(ctx); err == nil && st.IsLeader() {
				leader = m
				return true, nil
			}
		}
		return false, nil
	})
	return leader, err
}

// pick resolves -via: "leader", "follower" or "" (the first member).
func (e *env) pick(ctx context.Context, via string) (*member, error) {
	switch via {
	case "":
		return e.members[0], nil
	case "leader", "follower":
	default:
		return nil, fmt.Errorf("%w: -via %q: want leader or follower", errUsage, via)
	}
	if !e.hasHTTP() && len(e.members) > 1 {
		return nil, fmt.Errorf("-via %s: %w", via, errNoHTTP)
	}
	leader, err := e.leader(ctx)
	if err != nil || via == "leader" {
		return leader, err
	}
	for _, m := range e.members {
		if m != leader && !m.Exited() {
			return m, nil
		}
	}
	return nil, fmt.Errorf("%w: -via follower needs more than one member", errUsage)
}

// waitApplied waits until every live member with a known admin address has
// applied index. Members without one are skipped.
func (e *env) waitApplied(ctx context.Context, index uint64) error {
	for _, m := range e.members {
		if m.HTTPAddr == "" || m.Exited() {
			continue
		}
		err := launch.Poll(ctx, readyTimeout, 10*time.Millisecond, fmt.Sprintf("member %s to apply index %d", m.ID, index), func() (bool, error) {
			st, err := m.Status(ctx)
			return err == nil && st.AppliedIndex >= index, nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// appliedIndex is the index of the last entry m's state machine applied,
// 0 when unknown. Every write moves it; the barriers a leader appends to
// tell followers the commit index, and Raft's no-ops, do not.
func appliedIndex(ctx context.Context, m *member) (uint64, bool) {
	st, err := m.Status(ctx)
	if err != nil {
		return 0, false
	}
	return st.AppliedIndex, true
}

// allReady waits until every live member is ready.
func (e *env) allReady(ctx context.Context) error {
	for _, m := range e.members {
		if err := m.WaitReady(ctx, readyTimeout); err != nil {
			return err
		}
	}
	return nil
}

// readyLeaderAndFollower waits until every live member is ready, then
// returns the leader and a follower.
func (e *env) readyLeaderAndFollower(ctx context.Context) (leader, follower *member, err error) {
	if err := e.allReady(ctx); err != nil {
		return nil, nil, err
	}
	if leader, err = e.leader(ctx); err != nil {
		return nil, nil, err
	}
	if follower, err = e.pick(ctx, "follower"); err != nil {
		return nil, nil, err
	}
	return leader, follower, nil
}

// watchRecovery polls the members other than killed until one is leader in
// office and all are ready; it returns when each was first seen.
func (e *env) watchRecovery(ctx context.Context, killed *member) (leaderAt, readyAt time.Time, leaderID string, err error) {
	err = launch.Poll(ctx, readyTimeout, 10*time.Millisecond, "a new leader and ready survivors", func() (bool, error) {
		allReady := true
		for _, m := range e.members {
			if m == killed {
				continue
			}
			st, err := m.Status(ctx)
			if err != nil || !st.Ready {
				allReady = false
			}
			if err == nil && st.IsLeader() && leaderAt.IsZero() {
				leaderAt, leaderID = time.Now(), m.ID
			}
		}
		if allReady && !leaderAt.IsZero() && readyAt.IsZero() {
			readyAt = time.Now()
		}
		return !readyAt.IsZero(), nil
	})
	return leaderAt, readyAt, leaderID, err
}

// leaderTerm names the live members' leader and its term as "id/term",
// "" when no member reports one or the admin addresses are unknown.
func (e *env) leaderTerm(ctx context.Context) string {
	for _, m := range e.members {
		if m.HTTPAddr == "" || m.Exited() {
			continue
		}
		if st, err := m.Status(ctx); err == nil && st.IsLeader() {
			return fmt.Sprintf("%s/term %d", st.ID, st.Term)
		}
	}
	return ""
}

// role returns the member's Raft state, "" when unknown.
func (m *member) role(ctx context.Context) string {
	st, err := m.Status(ctx)
	if err != nil {
		return ""
	}
	return st.State
}
