package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/httpapi"
	"github.com/raftns/raftns/namesrv"
)

// config is the effective configuration of one member: defaults, then the
// -c properties file, then the settings UPDATE_NAMESRV_CONFIG persisted in
// the data directory, then command-line flags.
type config struct {
	ConfigFile string
	PrintOnly  bool
	// PrintVersion: print the build's identity and exit, reading nothing.
	PrintVersion bool
	ID           string
	DataDir      string
	Listen       string
	ClusterAddr  string
	HTTPAddr     string
	// AdvertiseHost replaces an unspecified listen host (":9866",
	// "0.0.0.0:9866") in the addresses this member gives to the others;
	// empty means 127.0.0.1.
	AdvertiseHost string
	Peers         []cluster.Peer
	Join          []string
	Bootstrap     bool
	// NewCluster forms a new cluster without asking the peers
	// (cluster.Config.NewCluster).
	NewCluster bool
	// PromoteAfter is cluster.Config.PromoteAfter.
	PromoteAfter time.Duration
	LogLevel     string
	// LogFormat is "text" (hclog's default) or "json", one object a line.
	LogFormat string
	// LogFile sends the log to a rotated file (logfile.go).
	LogFile        logFileConfig
	BrokerExpiry   time.Duration
	ScanInterval   time.Duration
	ConnCloseGrace time.Duration
	MaxStale       time.Duration
	RaftMultiplier int
	MaxConns       int
	IdleTimeout    time.Duration
	// ClusterTLSCert, ClusterTLSKey and ClusterTLSCA are PEM files that
	// make the cluster port mutual TLS; all three or none.
	ClusterTLSCert string
	ClusterTLSKey  string
	ClusterTLSCA   string
	// ClusterKeyFile holds the shared cluster key; ClusterInsecure allows
	// a non-loopback cluster address with neither TLS nor a key.
	ClusterKeyFile  string
	ClusterInsecure bool
	// MaxRequestMemory is the process-wide request-memory budget in bytes;
	// MaxInflatedBody caps one inflated register body; FrameTimeout bounds
	// reading one started frame.
	MaxRequestMemory int64
	MaxInflatedBody  int64
	FrameTimeout     time.Duration
	// HTTPTokenFile holds the admin bearer token; HTTPTLSCert/Key make the
	// admin port TLS; HTTPMaxConns caps its connections; MaxRestoreSize
	// caps an uploaded snapshot; HTTPPprof serves the Go profiler under
	// /debug/pprof/ (off by default; guarded like the mutating endpoints).
	HTTPTokenFile  string
	HTTPPprof      bool
	HTTPTLSCert    string
	HTTPTLSKey     string
	HTTPMaxConns   int
	MaxRestoreSize int64
	// ACLMode (off, writes, all), ACLFile (accounts) and ACLBrokerAddrs
	// (addresses whose unsigned broker codes pass) configure RocketMQ-port
	// access control.
	ACLMode        string
	ACLFile        string
	ACLBrokerAddrs []string

	// ClusterAdvertise is the address other members dial to reach
	// ClusterAddr (NAT, a proxy); empty means ClusterAddr itself.
	ClusterAdvertise string
	// AdvertiseClientAddr is the RocketMQ client address brokers and
	// clients are given for this member (the address service, the member
	// directory); empty means Listen with AdvertiseHost for its host.
	AdvertiseClientAddr string
	// AddressServiceAddr, when set, serves the RocketMQ address service on
	// a listener of its own, with at most AddressServiceMaxConns
	// connections (addrservice.go).
	AddressServiceAddr     string
	AddressServiceMaxConns int
	// Zone is this member's zone label; AddressServiceZoneOnly makes the
	// address service answer a zone with its members alone
	// (cluster.Config.Zone, AddressZoneOnly).
	Zone                   string
	AddressServiceZoneOnly bool
	// RemoveDrain is the drain of a removal that names none, when this
	// member leads it (cluster.Config.RemoveDrain).
	RemoveDrain time.Duration

	// Audit turns stamping changes into the audit trail on (default) or
	// off; AuditMaxRecords and AuditMaxAge bound the trail
	// (cluster.AuditConfig).
	Audit           bool
	AuditMaxRecords int
	AuditMaxAge     time.Duration
	// AuditQueryRate paces GET /v1/audit (httpapi.Options).
	AuditQueryRate int
	// WatchMaxWatchers and WatchBuffer bound GET /v1/watch (watch.Config).
	WatchMaxWatchers int
	WatchBuffer      int
	// WatchMaxAnonymous and WatchMaxAnonymousPerAddr bound the watchers
	// without the admin token; WatchWriteTimeout closes a stream whose
	// client stopped reading (httpapi.Options).
	WatchMaxAnonymous        int
	WatchMaxAnonymousPerAddr int
	WatchWriteTimeout        time.Duration
	// HTTPPublicReads keeps the admin reads of the state open under
	// --acl-mode all; HTTPTrustedProxies are the proxies whose
	// X-Forwarded-For the admin port believes.
	HTTPPublicReads    bool
	HTTPTrustedProxies []string

	// SnapshotInterval, SnapshotThreshold and TrailingLogs tune Raft
	// snapshots and log compaction (cluster.Config).
	SnapshotInterval  time.Duration
	SnapshotThreshold uint64
	TrailingLogs      uint64

	// GCPercent is the garbage collector's heap target the file or a flag
	// gave (gc.go); 0 when none did, and then GOGC or the default applies.
	GCPercent int

	// UnusedKeys are reference NameServer settings in the -c file that
	// RaftNS does not use (unusedkeys.go), warned about at start.
	UnusedKeys []string

	// Namesrv holds reference NameServer properties (orderMessageEnable…)
	// and unknown keys from the file, reported by GET_NAMESRV_CONFIG.
	Namesrv map[string]string
	// Controller configures the RocketMQ 5 controller.
	Controller controllerConfig
}

func defaultConfig() *config {
	return &config{
		DataDir:        "./data",
		Listen:         ":9876",
		ClusterAddr:    "127.0.0.1:9866",
		HTTPAddr:       "127.0.0.1:9856",
		Bootstrap:      true,
		PromoteAfter:   cluster.DefaultConfig().PromoteAfter,
		LogLevel:       "info",
		LogFormat:      "text",
		LogFile:        defaultLogFile(),
		BrokerExpiry:   120 * time.Second,
		ScanInterval:   5 * time.Second,
		ConnCloseGrace: 5 * time.Second,
		MaxStale:       10 * time.Second,
		RaftMultiplier: 1,
		MaxConns:       10000,
		IdleTimeout:    120 * time.Second,
		// A small host: 256 MiB of request bytes in flight is far above
		// what brokers and clients need (a 100k-topic registration inflates
		// to about 6 MiB) and far below the memory of any real machine.
		MaxRequestMemory: 256 << 20,
		MaxInflatedBody:  32 << 20,
		FrameTimeout:     30 * time.Second,
		HTTPMaxConns:     64,

		AddressServiceMaxConns:   httpapi.DefaultAddressMaxConns,
		RemoveDrain:              cluster.DefaultRemoveDrain,
		Audit:                    true,
		AuditMaxRecords:          cluster.DefaultAuditMaxRecords,
		AuditMaxAge:              cluster.DefaultAuditMaxAge,
		AuditQueryRate:           httpapi.DefaultAuditQueryRate,
		WatchMaxWatchers:         watch.DefaultMaxWatchers,
		WatchBuffer:              watch.DefaultBuffer,
		WatchMaxAnonymous:        httpapi.DefaultWatchAnonymous,
		WatchMaxAnonymousPerAddr: httpapi.DefaultWatchAnonymousPerAddr,
		WatchWriteTimeout:        httpapi.DefaultStreamWriteTimeout,
		MaxRestoreSize:           1 << 30,
		ACLMode:                  "off",
		Controller:               defaultControllerConfig(),

		SnapshotInterval:  cluster.DefaultSnapshotInterval,
		SnapshotThreshold: cluster.DefaultSnapshotThreshold,
		TrailingLogs:      cluster.DefaultTrailingLogs,
		Namesrv: map[string]string{
			namesrv.PropOrderMessageEnable:                "false",
			namesrv.PropReturnOrderTopicConfigToBroker:    "true",
			namesrv.PropEnableAllTopicList:                "true",
			namesrv.PropEnableTopicList:                   "true",
			namesrv.PropConfigBlackList:                   "configBlackList;configStorePath;kvConfigPath",
			namesrv.PropSupportActingMaster:               "false",
			namesrv.PropDeleteTopicWithBrokerRegistration: "false",
			namesrv.PropNotifyMinBrokerIDChanged:          "false",
			namesrv.PropClusterTest:                       "false",
			namesrv.PropProductEnvName:                    "center",
			namesrv.PropProductionNamesrvAddr:             "",
			namesrv.PropNamesrvAddr:                       "",
			namesrv.PropNamesrvDomain:                     "",
			namesrv.PropNamesrvDomainSubgroup:             "nsaddr",
		},
	}
}

// raftnsKeys are the properties RaftNS adds; UPDATE_NAMESRV_CONFIG may not
// change them and they are never persisted from it.
var raftnsKeys = []string{"id", "dataDir", "listen", "clusterAddr", "clusterAdvertise", "httpAddr", "advertiseHost", "peers", "join", "bootstrap", "newCluster", "promoteAfter",
	"advertiseClientAddr", "addressServiceAddr", "addressServiceMaxConnections", "removeDrain", "zone", "addressServiceZoneOnly",
	"logLevel", "logFormat", "logFile", "logMaxSize", "logMaxBackups", "logMaxAge", "brokerExpiry", "connCloseGrace", "maxStale", "raftMultiplier", "maxConnections",
	"clusterTlsCert", "clusterTlsKey", "clusterTlsCa", keyTLSMode, keyTLSCert, keyTLSKey, keyTLSKeyPassword,
	keyTLSTrustCert, keyTLSAuthClient, keyTLSNeedClientAuth, keyTLSTestMode, keyTLSConfigFile, keyProxyProtocol, keyTLSReload,
	keyEnableController, keyControllerListen}

// namesrvBoolKeys are reference keys whose values must parse as booleans.
var namesrvBoolKeys = []string{namesrv.PropOrderMessageEnable, namesrv.PropReturnOrderTopicConfigToBroker,
	namesrv.PropEnableAllTopicList, namesrv.PropEnableTopicList, namesrv.PropSupportActingMaster,
	namesrv.PropDeleteTopicWithBrokerRegistration, namesrv.PropNotifyMinBrokerIDChanged, namesrv.PropClusterTest}

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
	if fl.version {
		return &config{PrintVersion: true}, nil
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

func (c *config) validate() error {
	for name, addr := range map[string]string{"listen": c.Listen, "cluster address": c.ClusterAddr} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("%s %q: %w", name, addr, err)
		}
	}
	if c.ClusterAdvertise != "" {
		if _, _, err := net.SplitHostPort(c.ClusterAdvertise); err != nil {
			return fmt.Errorf("cluster advertise address %q: %w", c.ClusterAdvertise, err)
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
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("log format %q is not text or json", c.LogFormat)
	}
	if err := c.LogFile.validate(); err != nil {
		return err
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
	if _, err := c.clientPort(); err != nil {
		return err
	}
	for _, check := range []func() error{c.validateLimits, c.validateSnapshots, c.validateAuditWatch, c.validateClusterTLS,
		c.validateClusterExposure, c.validateHTTPSecurity, c.validateAddressService, c.validateACL} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
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
		"clusterAdvertise": c.ClusterAdvertise, "httpAddr": c.HTTPAddr, "advertiseHost": c.AdvertiseHost, "peers": strings.Join(peers, ","), "join": strings.Join(c.Join, ","),
		"bootstrap": strconv.FormatBool(c.Bootstrap), "newCluster": strconv.FormatBool(c.NewCluster), "promoteAfter": c.PromoteAfter.String(), "logLevel": c.LogLevel, "logFormat": c.LogFormat, "brokerExpiry": c.BrokerExpiry.String(),
		"scanNotActiveBrokerInterval": strconv.FormatInt(c.ScanInterval.Milliseconds(), 10),
		"connCloseGrace":              c.ConnCloseGrace.String(), "maxStale": c.MaxStale.String(),
		"raftMultiplier": strconv.Itoa(c.RaftMultiplier), "maxConnections": strconv.Itoa(c.MaxConns),
		"serverChannelMaxIdleTimeSeconds": strconv.Itoa(int(c.IdleTimeout / time.Second)),
		"configStorePath":                 c.persistedPath(),
		"clusterTlsCert":                  c.ClusterTLSCert, "clusterTlsKey": c.ClusterTLSKey, "clusterTlsCa": c.ClusterTLSCA,
		"clusterKeyFile": c.ClusterKeyFile, "clusterInsecure": strconv.FormatBool(c.ClusterInsecure),
		"maxRequestMemory": strconv.FormatInt(c.MaxRequestMemory, 10),
		"gcPercent":        c.gcPercentProperty(os.Getenv),
		"maxInflatedBody":  strconv.FormatInt(c.MaxInflatedBody, 10),
		"frameTimeout":     c.FrameTimeout.String(),
		"httpTokenFile":    c.HTTPTokenFile, "httpTlsCert": c.HTTPTLSCert, "httpTlsKey": c.HTTPTLSKey,
		"httpMaxConnections": strconv.Itoa(c.HTTPMaxConns),
		"httpPprof":          strconv.FormatBool(c.HTTPPprof),
		"maxRestoreSize":     strconv.FormatInt(c.MaxRestoreSize, 10),
		"aclMode":            c.ACLMode, "aclFile": c.ACLFile, "aclBrokerAddrs": strings.Join(c.ACLBrokerAddrs, ","),
		"snapshotInterval":    c.SnapshotInterval.String(),
		"snapshotThreshold":   strconv.FormatUint(c.SnapshotThreshold, 10),
		"trailingLogs":        strconv.FormatUint(c.TrailingLogs, 10),
		"advertiseClientAddr": c.AdvertiseClientAddr, "addressServiceAddr": c.AddressServiceAddr,
		"addressServiceMaxConnections": strconv.Itoa(c.AddressServiceMaxConns), "removeDrain": c.RemoveDrain.String(),
		"zone": c.Zone, "addressServiceZoneOnly": strconv.FormatBool(c.AddressServiceZoneOnly),
		"audit": strconv.FormatBool(c.Audit), "auditMaxRecords": strconv.Itoa(c.AuditMaxRecords),
		"auditMaxAge": c.AuditMaxAge.String(), "auditQueryRate": strconv.Itoa(c.AuditQueryRate),
		"watchMaxWatchers": strconv.Itoa(c.WatchMaxWatchers),
		"watchBuffer":      strconv.Itoa(c.WatchBuffer), "watchMaxAnonymous": strconv.Itoa(c.WatchMaxAnonymous),
		"watchMaxAnonymousPerAddr": strconv.Itoa(c.WatchMaxAnonymousPerAddr), "watchWriteTimeout": c.WatchWriteTimeout.String(),
		"httpPublicReads": strconv.FormatBool(c.HTTPPublicReads), "httpTrustedProxies": strings.Join(c.HTTPTrustedProxies, ","),
	} {
		p[k] = v
	}
	c.controllerProperties(p)
	c.LogFile.properties(p)
	return p
}
