package namesrv

import (
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Settings are the member's NameServer settings that UPDATE_NAMESRV_CONFIG
// may change at run time, like the reference's NamesrvConfig. They are per
// member, not replicated: mqadmin sends the update to every name server.
// Reads are lock-free (the route handler reads one per request); an update
// replaces the whole map.
type Settings struct {
	mu sync.Mutex // serializes updates
	// props holds every known property as text, reported by
	// GET_NAMESRV_CONFIG. The map is never modified once stored.
	props atomic.Pointer[map[string]string]
	// route holds the properties every route query reads, parsed when
	// props is stored.
	route atomic.Pointer[routeSettings]
	// persist, when set, saves the properties after an update.
	persist func(map[string]string) error
	// protected are keys besides the reference black list that updates may
	// not change.
	protected []string
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

// NewSettings returns settings holding props; persist may be nil. Updates
// may change neither the reference's black-listed keys nor protected.
func NewSettings(props map[string]string, persist func(map[string]string) error, protected ...string) *Settings {
	s := &Settings{persist: persist, protected: protected}
	cp := maps.Clone(props)
	if cp == nil {
		cp = map[string]string{}
	}
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
	black := append(append([]string(nil), fixedBlackList...), s.protected...)
	black = append(black, strings.Split((*s.props.Load())[PropConfigBlackList], ";")...)
	keys := make([]string, 0, len(update))
	for k := range update {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, b := range black {
			if strings.TrimSpace(b) != "" && k == strings.TrimSpace(b) {
				return k, true
			}
		}
	}
	return "", false
}

// Protected reports whether UPDATE_NAMESRV_CONFIG is refused for key.
func (s *Settings) Protected(key string) bool {
	_, black := s.blackListed(map[string]string{key: ""})
	return black
}

// Update merges properties whose keys already exist (the reference ignores
// unknown keys) and persists the result.
func (s *Settings) Update(update map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := maps.Clone(*s.props.Load())
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
	s.store(next)
	if s.persist == nil {
		return nil
	}
	return s.persist(maps.Clone(next))
}
