package transport

import (
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Settings are the member's NameServer settings that UPDATE_NAMESRV_CONFIG
// may change at run time, like the reference's NamesrvConfig. They are per
// member, not replicated: mqadmin sends the update to every name server.
type Settings struct {
	mu sync.RWMutex
	// props holds every known property as text, reported by
	// GET_NAMESRV_CONFIG.
	props map[string]string
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
)

// fixedBlackList are the keys UPDATE_NAMESRV_CONFIG never changes (4.9.8 and
// 5.2+), joined by the configBlackList property.
var fixedBlackList = []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"}

// NewSettings returns settings holding props; persist may be nil. Updates
// may change neither the reference's black-listed keys nor protected.
func NewSettings(props map[string]string, persist func(map[string]string) error, protected ...string) *Settings {
	s := &Settings{props: map[string]string{}, persist: persist, protected: protected}
	for k, v := range props {
		s.props[k] = v
	}
	return s
}

// Bool reads a boolean property; a missing one is def.
func (s *Settings) Bool(key string, def bool) bool {
	s.mu.RLock()
	v, ok := s.props[key]
	s.mu.RUnlock()
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
func (s *Settings) Properties() map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]string, len(s.props))
	for k, v := range s.props {
		out[k] = v
	}
	return out
}

// blackListed returns the first key of update that may not be changed.
func (s *Settings) blackListed(update map[string]string) (string, bool) {
	s.mu.RLock()
	black := append([]string(nil), fixedBlackList...)
	black = append(black, s.protected...)
	black = append(black, strings.Split(s.props[PropConfigBlackList], ";")...)
	s.mu.RUnlock()
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

// Update merges properties whose keys already exist (the reference ignores
// unknown keys) and persists the result.
func (s *Settings) Update(update map[string]string) error {
	s.mu.Lock()
	changed := false
	for k, v := range update {
		if _, ok := s.props[k]; ok {
			s.props[k] = strings.TrimSpace(v)
			changed = true
		}
	}
	snapshot := make(map[string]string, len(s.props))
	for k, v := range s.props {
		snapshot[k] = v
	}
	s.mu.Unlock()
	if !changed || s.persist == nil {
		return nil
	}
	return s.persist(snapshot)
}
