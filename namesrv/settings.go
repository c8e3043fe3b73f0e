package namesrv

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
)

// Settings are the NameServer settings that GET_NAMESRV_CONFIG reports and
// UPDATE_NAMESRV_CONFIG may change, like the reference's NamesrvConfig.
// They have two layers: the member's own values (defaults, its file, its
// flags, and what earlier releases persisted), and the run-time settings
// the cluster holds once the cluster version allows it (feature
// shared-settings), which win over the member's own for every key they
// name. Keys the update may not change (member-local settings) never come
// from the cluster. Reads are lock-free (the route handler reads one per
// request); a change replaces the whole map.
type Settings struct {
	mu sync.Mutex // serializes changes
	// local are the member's own values; cluster those the cluster holds
	// (nil while it holds none). Both are guarded by mu and never
	// modified once stored.
	local, cluster map[string]string
	// props holds every effective property as text, reported by
	// GET_NAMESRV_CONFIG. The map is never modified once stored.
	props atomic.Pointer[map[string]string]
	// route holds the properties every route query reads, parsed when
	// props is stored.
	route atomic.Pointer[routeSettings]
	// persist, when set, saves the member's own properties after a
	// member-local update (before the cluster holds settings).
	persist func(map[string]string) error
	// protected are keys besides the reference black list that updates may
	// not change.
	protected []string
	// changed, when set, runs after the effective values changed.
	changed func()
}

// Property keys with a run-time effect, named as in the reference.
const (
	PropOrderMessageEnable             = "orderMessageEnable"
	PropReturnOrderTopicConfigToBroker = "returnOrderTopicConfigToBroker"
	PropEnableAllTopicList             = "enableAllTopicList"
	PropEnableTopicList                = "enableTopicList"
	PropConfigBlackList                = "configBlackList"
	// PropSupportActingMaster shows a masterless acting-master group's
	// smallest-id slave as its master in routes.
	PropSupportActingMaster = "supportActingMaster"
	// PropDeleteTopicWithBrokerRegistration makes a registration that no
	// longer lists a topic remove the broker from it.
	PropDeleteTopicWithBrokerRegistration = "deleteTopicWithBrokerRegistration"
	// PropNotifyMinBrokerIDChanged sends NOTIFY_MIN_BROKER_ID_CHANGE to a
	// group's brokers when its smallest id changes (leader only).
	PropNotifyMinBrokerIDChanged = "notifyMinBrokerIdChanged"
)

// fixedBlackList are the keys UPDATE_NAMESRV_CONFIG never changes (4.9.8 and
// 5.2+), joined by the configBlackList property.
var fixedBlackList = []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"}

// NewSettings returns settings holding props as the member's own; persist
// may be nil. Updates may change neither the reference's black-listed keys
// nor protected.
func NewSettings(props map[string]string, persist func(map[string]string) error, protected ...string) *Settings {
	s := &Settings{persist: persist, protected: protected}
	cp := maps.Clone(props)
	if cp == nil {
		cp = map[string]string{}
	}
	s.local = cp
	s.store(cp)
	return s
}

// routeSettings are the properties that shape a route answer.
type routeSettings struct {
	order, actingMaster, clusterTest bool
}

// store replaces the properties with props, which is never modified
// afterwards.
func (s *Settings) store(props map[string]string) {
	s.props.Store(&props)
	clusterTest := s.Bool(PropClusterTest, false)
	s.route.Store(&routeSettings{
		// In cluster-test mode the reference always adds orderTopicConf.
		order:        s.Bool(PropOrderMessageEnable, false) || clusterTest,
		actingMaster: s.Bool(PropSupportActingMaster, false),
		clusterTest:  clusterTest,
	})
}

// routeFlags returns orderMessageEnable and supportActingMaster without
// parsing them again.
func (s *Settings) routeFlags() (order, actingMaster bool) {
	r := s.route.Load()
	return r.order, r.actingMaster
}

// clusterTest reports whether cluster-test mode is on.
func (s *Settings) clusterTest() bool { return s.route.Load().clusterTest }

// String reads a property; a missing one is "".
func (s *Settings) String(key string) string { return (*s.props.Load())[key] }

// Bool reads a boolean property; a missing or unparsable one is def.
func (s *Settings) Bool(key string, def bool) bool {
	v, ok := (*s.props.Load())[key]
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return def
	}
	return b
}

// Properties returns a copy of every property.
func (s *Settings) Properties() map[string]string { return maps.Clone(*s.props.Load()) }

// blackListed returns the first key of update that may not be changed.
func (s *Settings) blackListed(update map[string]string) (string, bool) {
	props := *s.props.Load()
	keys := make([]string, 0, len(update))
	for k := range update {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s.isProtected(k, props) {
			return k, true
		}
	}
	return "", false
}

// isProtected reports whether key may not be changed by an update, given
// the configBlackList property of props.
func (s *Settings) isProtected(key string, props map[string]string) bool {
	black := append(append([]string(nil), fixedBlackList...), s.protected...)
	black = append(black, strings.Split(props[PropConfigBlackList], ";")...)
	for _, b := range black {
		if b = strings.TrimSpace(b); b != "" && key == b {
			return true
		}
	}
	return false
}

// Protected reports whether UPDATE_NAMESRV_CONFIG is refused for key.
func (s *Settings) Protected(key string) bool {
	_, black := s.blackListed(map[string]string{key: ""})
	return black
}

// Update merges properties whose keys already exist (the reference ignores
// unknown keys) into the member's own values and persists them: the
// behaviour of a member whose cluster does not hold settings yet.
func (s *Settings) Update(update map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := maps.Clone(s.local)
	changed := false
	for k, v := range update {
		if _, ok := next[k]; ok {
			next[k] = strings.TrimSpace(v)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	s.local = next
	s.refreshLocked()
	if s.persist == nil {
		return nil
	}
	return s.persist(maps.Clone(next))
}

// SetCluster replaces the values the cluster holds (held false: none).
// It is called in log order, by the FSM's settings observer.
func (s *Settings) SetCluster(values map[string]string, held bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !held {
		values = nil
	} else if values == nil {
		values = map[string]string{}
	}
	s.cluster = values
	s.refreshLocked()
}

// refreshLocked stores the effective values: the member's own, overlaid by
// the cluster's for every key an update may change. s.mu is held.
func (s *Settings) refreshLocked() {
	next := maps.Clone(s.local)
	for k, v := range s.cluster {
		if !s.isProtected(k, s.local) {
			next[k] = v
		}
	}
	s.store(next)
	if s.changed != nil {
		s.changed()
	}
}

// OnChange sets fn to run after every change of the effective values,
// with the settings' lock held: fn must return quickly.
func (s *Settings) OnChange(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changed = fn
}

// Local returns a copy of the member's own values.
func (s *Settings) Local() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.local)
}

// ClusterHeld reports whether the cluster holds settings for these.
func (s *Settings) ClusterHeld() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cluster != nil
}

// Runtime returns the member's own values of the keys an update may
// change: what it offers the cluster as the seed of its settings.
func (s *Settings) Runtime() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for k, v := range s.local {
		if !s.isProtected(k, s.local) {
			out[k] = v
		}
	}
	return out
}

// hidden replaces a secret value; an empty one stays empty.
func hidden(v string) string {
	if v == "" {
		return v
	}
	return "(hidden)"
}

// table lists every key of the settings with its kind, its effective
// value and the member's own, for scope.
func (s *Settings) table(scope string) []adminapi.Setting {
	s.mu.Lock()
	defer s.mu.Unlock()
	props := *s.props.Load()
	keys := slices.Sorted(maps.Keys(props))
	out := make([]adminapi.Setting, 0, len(keys))
	for _, k := range keys {
		st := adminapi.Setting{Scope: scope, Key: k, Kind: adminapi.SettingClusterWide, Value: props[k]}
		st.Own, st.HasOwn = s.local[k]
		if state.SecretSetting(k) {
			st.Value, st.Own = hidden(st.Value), hidden(st.Own)
		}
		if s.isProtected(k, s.local) {
			st.Kind = adminapi.SettingMemberLocal
		} else if _, ok := s.cluster[k]; ok {
			st.FromCluster = true
		}
		out = append(out, st)
	}
	return out
}
