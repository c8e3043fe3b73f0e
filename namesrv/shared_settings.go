package namesrv

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// seedEvery is how often the leader checks whether the cluster holds
// settings yet, once the cluster version allows it.
const seedEvery = 500 * time.Millisecond

// shareSettings makes the settings the cluster holds this member's, in
// log order, and reports the member's settings in its status.
func (s *Server) shareSettings() {
	s.fsm.WatchSettings(func(scope string, values map[string]string, held bool) {
		if st := s.settingsOf(scope); st != nil {
			st.SetCluster(values, held)
		}
	})
	if node, ok := s.cluster.(*cluster.Node); ok {
		node.SetSettingsReporter(s.settingsTable)
	}
}

// settingsOf returns the settings of a scope, nil for one this member
// does not serve.
func (s *Server) settingsOf(scope string) *Settings {
	switch scope {
	case state.SettingsNamesrv:
		return s.cfg.Settings
	case state.SettingsController:
		if s.ctrl != nil {
			return s.ctrl.settings
		}
	}
	return nil
}

// settingsTable lists every setting of the member with its kind.
func (s *Server) settingsTable() []adminapi.Setting {
	out := s.cfg.Settings.table(state.SettingsNamesrv)
	if s.ctrl != nil {
		out = append(out, s.ctrl.settings.table(state.SettingsController)...)
	}
	return out
}

// sharedSettings reports whether settings are the cluster's: the cluster
// version allows it.
func (s *Server) sharedSettings() bool { return s.fsm.Gate().Allows(feature.SharedSettings) }

// updateClusterSettings proposes an update of the cluster's settings of
// scope, first seeding them with this member's own when the cluster holds
// none yet (so that no member keeps values of its own for keys the update
// does not name). The entry carries the caller in its audit stamp.
func (s *Server) updateClusterSettings(ctx context.Context, req *remoting.Command, settings *Settings, scope, what string,
	update map[string]string) (*remoting.Command, error) {
	if !settings.ClusterHeld() {
		if err := s.seedSettings(ctx, settings, scope); err != nil {
			return nil, err
		}
	}
	values := make(map[string]string, len(update))
	for k, v := range update {
		values[k] = strings.TrimSpace(v)
	}
	held, _ := s.fsm.Settings(scope)
	if held == nil {
		held = map[string]string{}
	}
	maps.Copy(held, values)
	if len(held) > state.MaxSettingsPerScope {
		return nil, badRequest(fmt.Sprintf("the cluster holds at most %d %s settings", state.MaxSettingsPerScope, what))
	}
	if _, err := s.cluster.Apply(ctx, fsm.SetSettingsType, &state.SetSettings{Scope: scope, Values: values}); err != nil {
		return nil, err
	}
	s.logger.Info(what+" config updated for the cluster", "keys", len(values))
	return success(req), nil
}

// runSeeder has the leader seed the cluster's settings with its own once
// the cluster version allows it, until stop is closed.
func (s *Server) runSeeder(stop <-chan struct{}) {
	poll.Every(seedEvery, stop, func() {
		if !s.cluster.LeaderReady() || !s.sharedSettings() {
			return
		}
		for _, scope := range []string{state.SettingsNamesrv, state.SettingsController} {
			settings := s.settingsOf(scope)
			if settings == nil || settings.ClusterHeld() {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
			ctx = cluster.WithCaller(ctx, cluster.Caller{Who: cluster.CallerLeader})
			if err := s.seedSettings(ctx, settings, scope); err != nil {
				s.logger.Warn("settings not yet adopted by the cluster, will retry", "scope", scope, "error", err)
			}
			cancel()
		}
	})
}

// seedSettings proposes this member's own run-time settings of scope as
// the cluster's first (applied only while the cluster holds none). When
// its seed is the one applied, it logs one warning per key whose value
// another member had differently, naming those members.
func (s *Server) seedSettings(ctx context.Context, settings *Settings, scope string) error {
	node, _ := s.cluster.(*cluster.Node)
	var members []adminapi.MemberSettings
	self := ""
	if node != nil {
		self = node.ID()
		members, _ = node.MemberSettings(ctx)
	}
	own := settings.Runtime()
	if _, err := s.cluster.Apply(ctx, fsm.SetSettingsType, &state.SetSettings{Scope: scope, Values: own, Seed: true, From: self}); err != nil {
		return fmt.Errorf("seed %s settings: %w", scope, err)
	}
	held, from := s.fsm.SettingsFrom(scope)
	if from != self || self == "" {
		return nil
	}
	s.logger.Info("the cluster adopted this member's run-time settings", "scope", scope, "keys", len(own))
	for _, w := range seedConflicts(scope, held, self, members) {
		s.logger.Warn("run-time setting differed between members; the cluster keeps one value", "scope", scope,
			"key", w.key, "value", w.value, "from", self, "others", w.others)
	}
	return nil
}

// seedConflict is a key some member had a value of its own for that is
// not the cluster's.
type seedConflict struct {
	key, value, others string
}

// seedConflicts compares every other member's own cluster-wide values of
// scope with held, the cluster's.
func seedConflicts(scope string, held map[string]string, self string, members []adminapi.MemberSettings) []seedConflict {
	differ := map[string][]string{}
	for _, m := range members {
		if m.ID == self {
			continue
		}
		for _, st := range m.Settings {
			if st.Scope != scope || st.Kind != adminapi.SettingClusterWide || !st.HasOwn {
				continue
			}
			if v, ok := held[st.Key]; !ok || v != st.Own {
				differ[st.Key] = append(differ[st.Key], m.ID+"="+st.Own)
			}
		}
	}
	out := make([]seedConflict, 0, len(differ))
	for _, k := range slices.Sorted(maps.Keys(differ)) {
		slices.Sort(differ[k])
		v, ok := held[k]
		if !ok {
			v = "(none)"
		}
		out = append(out, seedConflict{key: k, value: v, others: strings.Join(differ[k], ",")})
	}
	return out
}
