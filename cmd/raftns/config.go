package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
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

// config is the effective configuration of one member: defaults, then the
// -c properties file, then the settings UPDATE_NAMESRV_CONFIG persisted in
// the data directory, then command-line flags.
type config struct {
	ConfigFile     string
	PrintOnly      bool
	ID             string
	DataDir        string
	Listen         string
	ClusterAddr    string
	HTTPAddr       string
	Peers          []cluster.Peer
	Join           []string
	Bootstrap      bool
	LogLevel       string
	BrokerExpiry   time.Duration
	ScanInterval   time.Duration
	ConnCloseGrace time.Duration
	MaxStale       time.Duration
	RaftMultiplier int
	MaxConns       int
	IdleTimeout    time.Duration
	// Namesrv holds reference NameServer properties (orderMessageEnable…)
	// and unknown keys from the file, reported by GET_NAMESRV_CONFIG.
	Namesrv map[string]string
}

func defaultConfig() *config {
	return &config{
		DataDir:        "./data",
		Listen:         ":9876",
		ClusterAddr:    "127.0.0.1:9866",
		HTTPAddr:       "127.0.0.1:9856",
		Bootstrap:      true,
		LogLevel:       "info",
		BrokerExpiry:   120 * time.Second,
		ScanInterval:   5 * time.Second,
		ConnCloseGrace: 5 * time.Second,
		MaxStale:       10 * time.Second,
		RaftMultiplier: 1,
		MaxConns:       10000,
		IdleTimeout:    120 * time.Second,
		Namesrv: map[string]string{
			transport.PropOrderMessageEnable:             "false",
			transport.PropReturnOrderTopicConfigToBroker: "true",
			transport.PropEnableAllTopicList:             "true",
			transport.PropEnableTopicList:                "true",
			transport.PropConfigBlackList:                "configBlackList;configStorePath;kvConfigPath",
		},
	}
}

// raftnsKeys are the properties RaftNS adds; UPDATE_NAMESRV_CONFIG may not
// change them and they are never persisted from it.
var raftnsKeys = []string{"id", "dataDir", "listen", "clusterAddr", "httpAddr", "peers", "join", "bootstrap",
	"logLevel", "brokerExpiry", "connCloseGrace", "maxStale", "raftMultiplier", "maxConnections"}

// namesrvBoolKeys are reference keys whose values must parse as booleans.
var namesrvBoolKeys = []string{transport.PropOrderMessageEnable, transport.PropReturnOrderTopicConfigToBroker,
	transport.PropEnableAllTopicList, transport.PropEnableTopicList}

// parseConfig builds the effective configuration from args.
func parseConfig(args []string, stderr io.Writer) (*config, error) {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("raftns", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fl := registerFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if fl.configFile != "" {
		if err := cfg.loadFile(fl.configFile); err != nil {
			return nil, err
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["data-dir"] {
		cfg.DataDir = fl.values["dataDir"]
	}
	if err := cfg.loadPersisted(); err != nil {
		return nil, err
	}
	for flagName, key := range flagKeys {
		if set[flagName] {
			if err := cfg.apply(key, fl.values[key]); err != nil {
				return nil, fmt.Errorf("flag --%s: %w", flagName, err)
			}
		}
	}
	cfg.ConfigFile, cfg.PrintOnly = fl.configFile, fl.print
	return cfg, cfg.validate()
}

// flagKeys maps flag names to the property keys they set.
var flagKeys = map[string]string{
	"id": "id", "data-dir": "dataDir", "listen": "listen", "cluster-addr": "clusterAddr",
	"http-addr": "httpAddr", "peers": "peers", "join": "join", "bootstrap": "bootstrap",
	"log-level": "logLevel", "broker-expiry": "brokerExpiry", "scan-interval": "scanNotActiveBrokerInterval",
	"conn-close-grace": "connCloseGrace", "max-stale": "maxStale", "raft-multiplier": "raftMultiplier",
	"max-connections": "maxConnections", "order-message-enable": transport.PropOrderMessageEnable,
}

type flagValues struct {
	configFile string
	print      bool
	values     map[string]string
}

func registerFlags(fs *flag.FlagSet) *flagValues {
	fl := &flagValues{values: map[string]string{}}
	fs.StringVar(&fl.configFile, "c", "", "properties file in the reference NameServer's format")
	fs.BoolVar(&fl.print, "p", false, "print the effective configuration and exit")
	help := map[string]string{
		"id":                   "stable member ID (default: generated once and kept in the data dir)",
		"data-dir":             "directory for the Raft log and snapshots (default ./data)",
		"listen":               "RocketMQ client address host:port (default :9876)",
		"cluster-addr":         "Raft and member RPC address host:port, advertised to peers (default 127.0.0.1:9866)",
		"http-addr":            "admin HTTP address host:port, empty to disable (default 127.0.0.1:9856)",
		"peers":                "initial voters ID=HOST:PORT,... (the same list on each initial member)",
		"join":                 "cluster addresses of existing members to join, HOST:PORT,...",
		"bootstrap":            "bootstrap a single-member cluster when there are no peers and no join (default true)",
		"log-level":            "trace, debug, info, warn or error (default info)",
		"broker-expiry":        "expiry of brokers without their own heartbeat timeout, e.g. 120s",
		"scan-interval":        "how often the leader looks for silent brokers, e.g. 5s",
		"conn-close-grace":     "wait after a broker's last connection closed before expiring it, e.g. 5s",
		"max-stale":            "longest time without leader contact a follower still serves reads, e.g. 10s",
		"raft-multiplier":      "scale of Raft timers, 1 (LAN) to 10",
		"max-connections":      "client connection limit",
		"order-message-enable": "add orderTopicConf to routes (reference orderMessageEnable)",
	}
	for name := range flagKeys {
		key := flagKeys[name]
		fs.Func(name, help[name], func(v string) error { fl.values[key] = v; return nil })
	}
	return fl
}

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
	for _, k := range raftnsKeys {
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
	case "peers":
		c.Peers, err = parsePeers(value)
	case "join":
		c.Join = splitList(value)
	case "bootstrap":
		c.Bootstrap, err = strconv.ParseBool(value)
	case "logLevel":
		c.LogLevel = strings.ToLower(value)
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

func (c *config) validate() error {
	for name, addr := range map[string]string{"listen": c.Listen, "cluster address": c.ClusterAddr} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("%s %q: %w", name, addr, err)
		}
	}
	if c.HTTPAddr != "" {
		if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
			return fmt.Errorf("http address %q: %w", c.HTTPAddr, err)
		}
	}
	switch c.LogLevel {
	case "trace", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log level %q is not trace, debug, info, warn or error", c.LogLevel)
	}
	if c.MaxConns < 1 {
		return fmt.Errorf("max connections %d must be at least 1", c.MaxConns)
	}
	if c.IdleTimeout <= 0 {
		return fmt.Errorf("idle timeout %v must be positive", c.IdleTimeout)
	}
	if c.ID != "" && strings.ContainsAny(c.ID, " =,") {
		return fmt.Errorf("member id %q may not contain spaces, '=' or ','", c.ID)
	}
	return nil
}

// resolveID returns the member ID: the one stored in the data dir, which
// --id must match if both exist, or --id, or a new random one; it is stored
// on first use so a restart keeps its identity.
func (c *config) resolveID() (string, error) {
	path := filepath.Join(c.DataDir, "node-id")
	stored, err := os.ReadFile(path)
	switch {
	case err == nil:
		id := strings.TrimSpace(string(stored))
		if c.ID != "" && c.ID != id {
			return "", fmt.Errorf("data dir %s belongs to member %q, not %q", c.DataDir, id, c.ID)
		}
		return id, nil
	case !errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("read member id: %w", err)
	}
	id := c.ID
	if id == "" {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		id = "ns-" + hex.EncodeToString(b[:])
	}
	if err := os.MkdirAll(c.DataDir, 0o755); err != nil {
		return "", fmt.Errorf("create data dir: %w", err)
	}
	if err := os.WriteFile(path, []byte(id+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("store member id: %w", err)
	}
	return id, nil
}

// properties returns the effective configuration as properties, for -p and
// GET_NAMESRV_CONFIG.
func (c *config) properties() map[string]string {
	p := map[string]string{}
	for k, v := range c.Namesrv {
		p[k] = v
	}
	_, port, _ := net.SplitHostPort(c.Listen)
	var peers []string
	for _, pe := range c.Peers {
		peers = append(peers, pe.ID+"="+pe.Addr)
	}
	for k, v := range map[string]string{
		"id": c.ID, "dataDir": c.DataDir, "listen": c.Listen, "listenPort": port, "clusterAddr": c.ClusterAddr,
		"httpAddr": c.HTTPAddr, "peers": strings.Join(peers, ","), "join": strings.Join(c.Join, ","),
		"bootstrap": strconv.FormatBool(c.Bootstrap), "logLevel": c.LogLevel, "brokerExpiry": c.BrokerExpiry.String(),
		"scanNotActiveBrokerInterval": strconv.FormatInt(c.ScanInterval.Milliseconds(), 10),
		"connCloseGrace":              c.ConnCloseGrace.String(), "maxStale": c.MaxStale.String(),
		"raftMultiplier": strconv.Itoa(c.RaftMultiplier), "maxConnections": strconv.Itoa(c.MaxConns),
		"serverChannelMaxIdleTimeSeconds": strconv.Itoa(int(c.IdleTimeout / time.Second)),
		"configStorePath":                 c.persistedPath(),
	} {
		p[k] = v
	}
	return p
}
