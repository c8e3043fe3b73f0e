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
	"github.com/raftns/raftns/transport"
)

// loadFile reads a Java properties file.
func (c *config) loadFile(path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read config file: %w", err)
	}
	props, err := transport.ParseProperties(text)
	if err != nil {
		return fmt.Errorf("parse config file %s: %w", path, err)
	}
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
	props, err := transport.ParseProperties(text)
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
	var err error
	switch key {
	case "id":
		c.ID = value
	case "dataDir":
		c.DataDir = value
	case "listen":
		c.Listen = value
	case "listenPort":
		err = c.applyListenPort(value)
	case "bindAddress":
		_, port, _ := net.SplitHostPort(c.Listen)
		c.Listen = net.JoinHostPort(strings.TrimPrefix(value, "0.0.0.0"), port)
	case "clusterAddr":
		c.ClusterAddr = value
	case "httpAddr":
		c.HTTPAddr = value
	case "advertiseHost":
		c.AdvertiseHost = value
	case "peers":
		c.Peers, err = parsePeers(value)
	case "join":
		c.Join = splitList(value)
	case "bootstrap":
		c.Bootstrap, err = strconv.ParseBool(value)
	case "logLevel":
		c.LogLevel = strings.ToLower(value)
	case "logFormat":
		c.LogFormat = strings.ToLower(value)
	case "brokerExpiry":
		c.BrokerExpiry, err = parseDuration(value)
	case "scanNotActiveBrokerInterval":
		c.ScanInterval, err = parseDuration(value)
	case "connCloseGrace":
		c.ConnCloseGrace, err = parseDuration(value)
	case "maxStale":
		c.MaxStale, err = parseDuration(value)
	case "serverChannelMaxIdleTimeSeconds":
		var secs int
		secs, err = strconv.Atoi(value)
		c.IdleTimeout = time.Duration(secs) * time.Second
	case "raftMultiplier":
		c.RaftMultiplier, err = strconv.Atoi(value)
	case "maxConnections":
		c.MaxConns, err = strconv.Atoi(value)
	case "clusterTlsCert":
		c.ClusterTLSCert = value
	case "clusterTlsKey":
		c.ClusterTLSKey = value
	case "clusterTlsCa":
		c.ClusterTLSCA = value
	case "clusterKeyFile":
		c.ClusterKeyFile = value
	case "clusterInsecure":
		c.ClusterInsecure, err = strconv.ParseBool(value)
	case "maxRequestMemory":
		c.MaxRequestMemory, err = parseBytes(value)
	case "maxInflatedBody":
		c.MaxInflatedBody, err = parseBytes(value)
	case "frameTimeout":
		c.FrameTimeout, err = parseDuration(value)
	case "httpTokenFile":
		c.HTTPTokenFile = value
	case "httpTlsCert":
		c.HTTPTLSCert = value
	case "httpTlsKey":
		c.HTTPTLSKey = value
	case "httpMaxConnections":
		c.HTTPMaxConns, err = strconv.Atoi(value)
	case "maxRestoreSize":
		c.MaxRestoreSize, err = parseBytes(value)
	case "aclMode":
		c.ACLMode = strings.ToLower(value)
	case "aclFile":
		c.ACLFile = value
	case "aclBrokerAddrs":
		c.ACLBrokerAddrs = splitList(value)
	default:
		for _, b := range namesrvBoolKeys {
			if key == b {
				_, err = strconv.ParseBool(value)
			}
		}
		if err == nil {
			c.Namesrv[key] = value
		}
	}
	return err
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
