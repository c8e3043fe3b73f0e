package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/protocol/body"
)

// loadFile reads a Java properties file.
func (c *config) loadFile(path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config file: %w", err)
	}
	props, err := body.ParseProperties(text)
	if err != nil {
		return fmt.Errorf("parse config file %s: %w", path, err)
	}
	c.noteUnusedKeys(props)
	return c.applyAll(props, path)
}

// persistedPath is where UPDATE_NAMESRV_CONFIG saves settings.
func (c *config) persistedPath() string { return filepath.Join(c.DataDir, "namesrv.properties") }

func (c *config) loadPersisted() error {
	text, err := os.ReadFile(c.persistedPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read persisted settings: %w", err)
	}
	props, err := body.ParseProperties(text)
	if err != nil {
		return fmt.Errorf("parse %s: %w", c.persistedPath(), err)
	}
	for _, k := range protectedKeys() {
		delete(props, k)
	}
	return c.applyAll(props, c.persistedPath())
}

func (c *config) applyAll(props map[string]string, source string) error {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := c.apply(k, props[k]); err != nil {
			return fmt.Errorf("%s: key %s: %w", source, k, err)
		}
	}
	return nil
}

// apply sets one property. Reference keys keep their meaning; unknown keys
// are kept and reported by GET_NAMESRV_CONFIG, as the reference does.
func (c *config) apply(key, value string) error {
	value = strings.TrimSpace(value)
	if handled, err := c.applyController(key, value); handled {
		return err
	}
	if set, ok := c.setters()[key]; ok {
		return set(value)
	}
	if set, ok := c.LogFile.setters()[key]; ok {
		return set(value)
	}
	var err error
	for _, b := range namesrvBoolKeys {
		if key == b {
			_, err = strconv.ParseBool(value)
		}
	}
	if err == nil {
		c.Namesrv[key] = value
	}
	return err
}

// setters maps every RaftNS and reference key but the controller's to
// what reads its value into the configuration.
func (c *config) setters() map[string]func(string) error {
	return map[string]func(string) error{
		"id":                              setString(&c.ID),
		"dataDir":                         setString(&c.DataDir),
		"listen":                          setString(&c.Listen),
		"listenPort":                      c.applyListenPort,
		"bindAddress":                     c.applyBindAddress,
		"clusterAddr":                     setString(&c.ClusterAddr),
		"clusterAdvertise":                setString(&c.ClusterAdvertise),
		"httpAddr":                        setString(&c.HTTPAddr),
		"advertiseHost":                   setString(&c.AdvertiseHost),
		"peers":                           setParsed(&c.Peers, parsePeers),
		"join":                            setParsed(&c.Join, listOf),
		"bootstrap":                       setParsed(&c.Bootstrap, strconv.ParseBool),
		"newCluster":                      setParsed(&c.NewCluster, strconv.ParseBool),
		"promoteAfter":                    setParsed(&c.PromoteAfter, parseDuration),
		"logLevel":                        setParsed(&c.LogLevel, lowerCase),
		"logFormat":                       setParsed(&c.LogFormat, lowerCase),
		"brokerExpiry":                    setParsed(&c.BrokerExpiry, parseDuration),
		"scanNotActiveBrokerInterval":     setParsed(&c.ScanInterval, parseDuration),
		"connCloseGrace":                  setParsed(&c.ConnCloseGrace, parseDuration),
		"maxStale":                        setParsed(&c.MaxStale, parseDuration),
		"serverChannelMaxIdleTimeSeconds": setParsed(&c.IdleTimeout, parseSeconds),
		"raftMultiplier":                  setParsed(&c.RaftMultiplier, strconv.Atoi),
		"maxConnections":                  setParsed(&c.MaxConns, strconv.Atoi),
		"clusterTlsCert":                  setString(&c.ClusterTLSCert),
		"clusterTlsKey":                   setString(&c.ClusterTLSKey),
		"clusterTlsCa":                    setString(&c.ClusterTLSCA),
		"clusterKeyFile":                  setString(&c.ClusterKeyFile),
		"clusterInsecure":                 setParsed(&c.ClusterInsecure, strconv.ParseBool),
		"maxRequestMemory":                setParsed(&c.MaxRequestMemory, parseBytes),
		"maxInflatedBody":                 setParsed(&c.MaxInflatedBody, parseBytes),
		"frameTimeout":                    setParsed(&c.FrameTimeout, parseDuration),
		"httpTokenFile":                   setString(&c.HTTPTokenFile),
		"httpTlsCert":                     setString(&c.HTTPTLSCert),
		"httpTlsKey":                      setString(&c.HTTPTLSKey),
		"httpMaxConnections":              setParsed(&c.HTTPMaxConns, strconv.Atoi),
		"httpPprof":                       setParsed(&c.HTTPPprof, strconv.ParseBool),
		"maxRestoreSize":                  setParsed(&c.MaxRestoreSize, parseBytes),
		"aclMode":                         setParsed(&c.ACLMode, lowerCase),
		"aclFile":                         setString(&c.ACLFile),
		"aclBrokerAddrs":                  setParsed(&c.ACLBrokerAddrs, listOf),
		"snapshotInterval":                setParsed(&c.SnapshotInterval, parseDuration),
		"snapshotThreshold":               setParsed(&c.SnapshotThreshold, parseCount),
		"trailingLogs":                    setParsed(&c.TrailingLogs, parseCount),
		"gcPercent":                       setParsed(&c.GCPercent, parseGCPercent),
		"advertiseClientAddr":             setString(&c.AdvertiseClientAddr),
		"addressServiceAddr":              setString(&c.AddressServiceAddr),
		"addressServiceMaxConnections":    setParsed(&c.AddressServiceMaxConns, strconv.Atoi),
		"removeDrain":                     setParsed(&c.RemoveDrain, parseDuration),
		"zone":                            setParsed(&c.Zone, parseZone),
		"addressServiceZoneOnly":          setParsed(&c.AddressServiceZoneOnly, strconv.ParseBool),
		"audit":                           setParsed(&c.Audit, strconv.ParseBool),
		"auditMaxRecords":                 setParsed(&c.AuditMaxRecords, strconv.Atoi),
		"auditMaxAge":                     setParsed(&c.AuditMaxAge, parseDuration),
		"auditQueryRate":                  setParsed(&c.AuditQueryRate, strconv.Atoi),
		"watchMaxWatchers":                setParsed(&c.WatchMaxWatchers, strconv.Atoi),
		"watchBuffer":                     setParsed(&c.WatchBuffer, strconv.Atoi),
		"watchMaxAnonymous":               setParsed(&c.WatchMaxAnonymous, strconv.Atoi),
		"watchMaxAnonymousPerAddr":        setParsed(&c.WatchMaxAnonymousPerAddr, strconv.Atoi),
		"watchWriteTimeout":               setParsed(&c.WatchWriteTimeout, parseDuration),
		"httpPublicReads":                 setParsed(&c.HTTPPublicReads, strconv.ParseBool),
		"httpTrustedProxies":              setParsed(&c.HTTPTrustedProxies, listOf),
	}
}

// setString stores a value as it is written.
func setString(field *string) func(string) error { return setParsed(field, asWritten) }

func asWritten(v string) (string, error) { return v, nil }

// setParsed stores what parse makes of a value; like a direct assignment,
// it stores parse's result even when parse fails.
func setParsed[T any](field *T, parse func(string) (T, error)) func(string) error {
	return func(v string) error {
		var err error
		*field, err = parse(v)
		return err
	}
}

func lowerCase(v string) (string, error) { return strings.ToLower(v), nil }

func listOf(v string) ([]string, error) { return splitList(v), nil }

// parseSeconds reads a whole number of seconds, the reference's unit for
// serverChannelMaxIdleTimeSeconds.
func parseSeconds(v string) (time.Duration, error) {
	secs, err := strconv.Atoi(v)
	return time.Duration(secs) * time.Second, err
}

// applyBindAddress keeps the listen port and takes the host from the
// reference's bindAddress (0.0.0.0 meaning every interface).
func (c *config) applyBindAddress(value string) error {
	_, port, _ := net.SplitHostPort(c.Listen)
	c.Listen = net.JoinHostPort(strings.TrimPrefix(value, "0.0.0.0"), port)
	return nil
}

func (c *config) applyListenPort(value string) error {
	port, err := strconv.Atoi(value)
	if err != nil || port < 0 || port > 65535 {
		return fmt.Errorf("%q is not a port", value)
	}
	host, _, _ := net.SplitHostPort(c.Listen)
	c.Listen = net.JoinHostPort(host, strconv.Itoa(port))
	return nil
}

// parseDuration accepts Go durations ("5s") and, like the reference's
// millisecond properties, bare numbers of milliseconds.
func parseDuration(v string) (time.Duration, error) {
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.Duration(ms) * time.Millisecond, nil
	}
	return time.ParseDuration(v)
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parsePeers(v string) ([]cluster.Peer, error) {
	var peers []cluster.Peer
	for _, item := range splitList(v) {
		id, addr, ok := strings.Cut(item, "=")
		if !ok || id == "" || addr == "" {
			return nil, fmt.Errorf("peer %q is not ID=HOST:PORT", item)
		}
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return nil, fmt.Errorf("peer %q: %w", item, err)
		}
		peers = append(peers, cluster.Peer{ID: id, Addr: addr})
	}
	return peers, nil
}
