package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/raftns/raftns/namesrv"
)

// runtimeKeys are the properties UPDATE_NAMESRV_CONFIG may change: the
// reference's switches that RaftNS reads on every request. Every other
// setting is read once at start, so changing it at run time would only
// take effect, unannounced, at the next restart.
var runtimeKeys = []string{namesrv.PropOrderMessageEnable, namesrv.PropReturnOrderTopicConfigToBroker,
	namesrv.PropEnableAllTopicList, namesrv.PropEnableTopicList, namesrv.PropSupportActingMaster,
	namesrv.PropDeleteTopicWithBrokerRegistration, namesrv.PropNotifyMinBrokerIDChanged,
	namesrv.PropClusterTest, namesrv.PropProductEnvName, namesrv.PropProductionNamesrvAddr,
	namesrv.PropNamesrvAddr, namesrv.PropNamesrvDomain, namesrv.PropNamesrvDomainSubgroup}

// keyAliases are the other names a setting goes by: the reference's
// properties that set a RaftNS setting.
var keyAliases = map[string][]string{
	"listen": {"listenPort", "bindAddress"},
}

// startOnlyReferenceKeys are reference properties RaftNS reads at start.
var startOnlyReferenceKeys = []string{"scanNotActiveBrokerInterval", "serverChannelMaxIdleTimeSeconds"}

// protectedKeys returns every name of every setting UPDATE_NAMESRV_CONFIG
// may not change, and that is never persisted from it: each RaftNS
// property, its flag name, its reference aliases, and the reference keys
// read only at start.
func protectedKeys() []string {
	runtime := map[string]bool{}
	for _, k := range runtimeKeys {
		runtime[k] = true
	}
	set := map[string]bool{}
	add := func(k string) {
		if !runtime[k] {
			set[k] = true
		}
	}
	for flagName, key := range flagKeys {
		if runtime[key] {
			continue
		}
		add(flagName)
		add(key)
		for _, a := range keyAliases[key] {
			add(a)
		}
	}
	for _, k := range startOnlyReferenceKeys {
		add(k)
	}
	for _, k := range raftnsKeys {
		add(k)
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// parseBytes reads a byte size: a plain number, or one with a K, M or G
// suffix (KiB, MiB, GiB, KB, MB, GB or the bare letter; all binary).
func parseBytes(v string) (int64, error) {
	s := strings.TrimSpace(v)
	mult := int64(1)
	upper := strings.ToUpper(s)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(upper, u.suffix) {
			s, mult = strings.TrimSpace(s[:len(s)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a byte size (e.g. 268435456, 256MiB, 1GiB)", v)
	}
	return n * mult, nil
}

// validateLimits checks the memory and time limits.
func (c *config) validateLimits() error {
	switch {
	case c.MaxRequestMemory < 1<<20:
		return fmt.Errorf("max request memory %d is below 1 MiB", c.MaxRequestMemory)
	case c.MaxInflatedBody < 1<<20:
		return fmt.Errorf("max inflated body %d is below 1 MiB", c.MaxInflatedBody)
	case c.MaxInflatedBody > c.MaxRequestMemory:
		return fmt.Errorf("max inflated body %d exceeds max request memory %d, so no such body could ever be admitted",
			c.MaxInflatedBody, c.MaxRequestMemory)
	case c.FrameTimeout <= 0:
		return fmt.Errorf("frame timeout %v must be positive", c.FrameTimeout)
	case c.HTTPMaxConns < 1:
		return fmt.Errorf("http max connections %d must be at least 1", c.HTTPMaxConns)
	case c.MaxRestoreSize < 1<<20:
		return fmt.Errorf("max restore size %d is below 1 MiB", c.MaxRestoreSize)
	}
	return nil
}
