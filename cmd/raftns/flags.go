package main

import (
	"flag"

	"github.com/raftns/raftns/namesrv"
)

// flagKeys maps flag names to the property keys they set.
var flagKeys = map[string]string{
	"id": "id", "data-dir": "dataDir", "listen": "listen", "cluster-addr": "clusterAddr",
	"http-addr": "httpAddr", "advertise-host": "advertiseHost", "peers": "peers", "join": "join", "bootstrap": "bootstrap",
	"log-level": "logLevel", "log-format": "logFormat", "log-file": "logFile", "log-max-size": "logMaxSize",
	"log-max-backups": "logMaxBackups", "log-max-age": "logMaxAge", "broker-expiry": "brokerExpiry", "scan-interval": "scanNotActiveBrokerInterval",
	"conn-close-grace": "connCloseGrace", "max-stale": "maxStale", "raft-multiplier": "raftMultiplier",
	"max-connections": "maxConnections", "order-message-enable": namesrv.PropOrderMessageEnable,
	"cluster-tls-cert": "clusterTlsCert", "cluster-tls-key": "clusterTlsKey", "cluster-tls-ca": "clusterTlsCa",
	"support-acting-master":                 namesrv.PropSupportActingMaster,
	"delete-topic-with-broker-registration": namesrv.PropDeleteTopicWithBrokerRegistration,
	"notify-min-broker-id-changed":          namesrv.PropNotifyMinBrokerIDChanged,
	"tls-server-mode":                       keyTLSMode, "tls-cert": keyTLSCert, "tls-key": keyTLSKey, "tls-client-ca": keyTLSTrustCert,
	"tls-need-client-auth": keyTLSNeedClientAuth, "tls-test-mode": keyTLSTestMode, "tls-config-file": keyTLSConfigFile,
	"tls-reload-interval": keyTLSReload, "proxy-protocol": keyProxyProtocol,
	"cluster-key-file": "clusterKeyFile", "cluster-insecure": "clusterInsecure",
	"max-request-memory": "maxRequestMemory", "max-inflated-body": "maxInflatedBody", "frame-timeout": "frameTimeout",
	"http-token-file": "httpTokenFile", "http-tls-cert": "httpTlsCert", "http-tls-key": "httpTlsKey",
	"http-max-connections": "httpMaxConnections", "http-pprof": "httpPprof", "max-restore-size": "maxRestoreSize",
	"acl-mode": "aclMode", "acl-file": "aclFile", "acl-broker-addrs": "aclBrokerAddrs",
	"controller": keyEnableController, "controller-listen": keyControllerListen,
	"elect-unclean-master": namesrv.PropEnableElectUncleanMaster,
	"cluster-advertise":    "clusterAdvertise",
	"snapshot-interval":    "snapshotInterval", "snapshot-threshold": "snapshotThreshold", "trailing-logs": "trailingLogs",
	"gc-percent": "gcPercent", "advertise-client-addr": "advertiseClientAddr", "address-service-addr": "addressServiceAddr",
	"address-service-max-connections": "addressServiceMaxConnections", "remove-drain": "removeDrain",
	"zone": "zone", "address-service-zone-only": "addressServiceZoneOnly",
	"audit": "audit", "audit-max-records": "auditMaxRecords", "audit-max-age": "auditMaxAge",
	"audit-query-rate":   "auditQueryRate",
	"watch-max-watchers": "watchMaxWatchers", "watch-buffer": "watchBuffer",
	"new-cluster": "newCluster", "promote-after": "promoteAfter",
	"watch-max-anonymous": "watchMaxAnonymous", "watch-max-anonymous-per-addr": "watchMaxAnonymousPerAddr",
	"watch-write-timeout": "watchWriteTimeout", "http-public-reads": "httpPublicReads",
	"http-trusted-proxies": "httpTrustedProxies",
	"cluster-test":         namesrv.PropClusterTest, "product-env-name": namesrv.PropProductEnvName,
	"production-namesrv-addr": namesrv.PropProductionNamesrvAddr, "production-namesrv-domain": namesrv.PropNamesrvDomain,
}

type flagValues struct {
	configFile string
	print      bool
	version    bool
	values     map[string]string
}

// flagHelp is the help text of each long flag.
var flagHelp = map[string]string{
	"id":                                    "stable member ID (default: generated once and kept in the data dir)",
	"data-dir":                              "directory for the Raft log and snapshots (default ./data)",
	"listen":                                "RocketMQ client address host:port (default :9876)",
	"cluster-addr":                          "Raft and member RPC address host:port, advertised to peers (default 127.0.0.1:9866)",
	"cluster-advertise":                     "address host:port other members use to reach --cluster-addr, when it differs (NAT, a proxy); default --cluster-addr",
	"http-addr":                             "admin HTTP address host:port, empty to disable (default 127.0.0.1:9856)",
	"advertise-host":                        "host name or address other members use for this one when a listen address has no host, e.g. the pod's DNS name (default 127.0.0.1)",
	"peers":                                 "initial voters ID=HOST:PORT,... (the same list on each initial member; a member not in it waits to be added)",
	"join":                                  "cluster addresses of existing members to join, HOST:PORT,...",
	"bootstrap":                             "bootstrap a single-member cluster when there are no peers and no join (default true)",
	"log-level":                             "trace, debug, info, warn or error (default info)",
	"log-format":                            "text, or json for one JSON object a line with stable field names (default text)",
	"log-file":                              "write the log to this file instead of standard error, rotated by size (for hosts without journald)",
	"log-max-size":                          "size at which --log-file is rotated, e.g. 100MiB, at least 1MiB (default 100MiB)",
	"log-max-backups":                       "rotated log files kept, 0 for no count limit (default 10)",
	"log-max-age":                           "age after which rotated log files are removed, in whole days, e.g. 720h; 0 for no age limit (default 720h)",
	"broker-expiry":                         "expiry of brokers without their own heartbeat timeout, e.g. 120s",
	"scan-interval":                         "how often the leader looks for silent brokers, e.g. 5s",
	"conn-close-grace":                      "wait after a broker's last connection closed before expiring it, e.g. 5s",
	"max-stale":                             "longest time without leader contact a follower still serves reads, e.g. 10s",
	"raft-multiplier":                       "scale of Raft timers, 1 (LAN) to 10",
	"max-connections":                       "client connection limit",
	"order-message-enable":                  "add orderTopicConf to routes (reference orderMessageEnable)",
	"cluster-tls-cert":                      "PEM certificate of this member for mutual TLS on the cluster port (with --cluster-tls-key and --cluster-tls-ca)",
	"cluster-tls-key":                       "PEM private key of --cluster-tls-cert",
	"cluster-tls-ca":                        "PEM certificates of the CA that signs every member's certificate",
	"support-acting-master":                 "show a masterless acting-master group's smallest-id slave as master in routes (reference supportActingMaster)",
	"delete-topic-with-broker-registration": "a registration that no longer lists a topic removes the broker from it (reference deleteTopicWithBrokerRegistration)",
	"notify-min-broker-id-changed":          "tell a group's brokers when its smallest id changes, NOTIFY_MIN_BROKER_ID_CHANGE (reference notifyMinBrokerIdChanged)",
	"tls-server-mode":                       "TLS on the client port: disabled (default), permissive (TLS and plain) or enforcing (TLS only) (tls.server.mode)",
	"tls-cert":                              "PEM certificate of the client port (tls.server.certPath)",
	"tls-key":                               "PEM private key of --tls-cert, unencrypted (tls.server.keyPath)",
	"tls-client-ca":                         "PEM CA certificates that client certificates must chain to, with --tls-need-client-auth optional or require (tls.server.trustCertPath)",
	"tls-need-client-auth":                  "client certificates: none (default), optional or require (tls.server.need.client.auth)",
	"tls-test-mode":                         "serve a throw-away self-signed certificate instead of --tls-cert (tls.test.mode.enable)",
	"tls-config-file":                       "properties file whose tls.* keys override these (tls.config.file)",
	"tls-reload-interval":                   "how often the certificate files are checked for changes and reloaded, 0 to check only on SIGHUP (default 10s)",
	"proxy-protocol":                        "accept a PROXY protocol v1/v2 header on client connections (only behind a load balancer that sends it)",
	"cluster-key-file":                      "file holding the shared cluster key (at least 16 bytes); every cluster-port connection must prove it",
	"cluster-insecure":                      "allow a non-loopback cluster address without TLS or a cluster key (logs a warning)",
	"max-request-memory":                    "process-wide budget for request bytes held (frames and inflated bodies), e.g. 256MiB; beyond it SYSTEM_BUSY",
	"max-inflated-body":                     "largest size a compressed REGISTER_BROKER body may inflate to, e.g. 32MiB",
	"frame-timeout":                         "time a started client frame has to arrive completely, e.g. 30s",
	"http-token-file":                       "file holding the admin bearer token for mutating admin endpoints (required for a non-loopback admin address)",
	"http-tls-cert":                         "PEM certificate for TLS on the admin HTTP port (with --http-tls-key)",
	"http-tls-key":                          "PEM private key of --http-tls-cert",
	"http-max-connections":                  "admin HTTP connection limit",
	"http-pprof":                            "serve the Go profiler under /debug/pprof/ on the admin port, with the admin token (or from loopback only when none is set) (default false)",
	"max-restore-size":                      "largest snapshot accepted by POST /v1/snapshot, e.g. 1GiB",
	"acl-mode":                              "RocketMQ-port access control: off, writes (state changes need a signature) or all",
	"acl-file":                              "accounts file shaped like RocketMQ's plain_acl.yml (accessKey, secretKey, admin, whiteRemoteAddress)",
	"acl-broker-addrs":                      "addresses (IPs or CIDRs, comma-separated) whose unsigned broker registrations and heartbeats are accepted under ACL",
	"controller":                            "serve the RocketMQ 5 controller requests (enableControllerInNamesrv, default true)",
	"controller-listen":                     "extra address host:port serving the same protocol, for brokers' controllerAddr (default none)",
	"elect-unclean-master":                  "let the controller elect a replica outside the SyncStateSet (enableElectUncleanMaster, default false)",
	"snapshot-interval":                     "how often Raft checks whether to take a snapshot (each check waits one to two intervals), e.g. 2s (default 2s)",
	"snapshot-threshold":                    "log entries past the last snapshot before a check takes a new one (default 4096)",
	"trailing-logs":                         "log entries a snapshot leaves in the log; a member further behind receives the snapshot instead (default 8192)",
	"gc-percent":                            "garbage collector heap target in percent of the live heap, 10 to 1000 (default 300; without it, a GOGC environment variable applies)",
	"advertise-client-addr":                 "RocketMQ client address host:port that brokers and clients are given for this member (the address service); default --listen with --advertise-host for an unspecified host",
	"address-service-addr":                  "serve the RocketMQ address service (GET /rocketmq/nsaddr) on this plain-HTTP address host:port, e.g. :8080; it is also served on a plain-HTTP --http-addr (default none)",
	"address-service-max-connections":       "address service connection limit (default 256)",
	"zone":                                  "this member's zone label; the address service lists a zone's members first for GET /rocketmq/nsaddr-<zone> (default none)",
	"address-service-zone-only":             "answer GET /rocketmq/nsaddr-<zone> with that zone's ready members alone, not first (default false)",
	"remove-drain":                          "how long a member being removed keeps serving, no longer listed by the address service, when this member leads the removal and it names no drain (default 30s)",
	"audit":                                 "stamp the changes this member takes (and decides as leader) into the replicated audit trail (default true)",
	"audit-max-records":                     "records the audit trail keeps; give every member the same (default 10000)",
	"audit-max-age":                         "age after which audit records are dropped, e.g. 720h; give every member the same (default 720h)",
	"audit-query-rate":                      "GET /v1/audit queries answered a second to callers without the admin token; more wait their turn (default 20)",
	"watch-max-watchers":                    "watchers (GET /v1/watch, blocking or streaming) this member serves at once (default 2048)",
	"watch-buffer":                          "changes buffered per watcher before it is told it missed some (default 64)",
	"new-cluster":                           "with --peers and an empty data dir, form a new cluster without asking the peers whether they hold one: only to start again from nothing after every member lost its data (otherwise restore a backup: raftnsctl snapshot restore)",
	"promote-after":                         "how long a caught-up non-voter stays caught up before the leader makes it a voter, e.g. 10s (default 10s)",
	"watch-max-anonymous":                   "watchers without the admin token this member serves at once; more are answered 429 (default 32)",
	"watch-max-anonymous-per-addr":          "watchers without the admin token from one remote IP address (default 8)",
	"watch-write-timeout":                   "a watch stream whose client takes nothing for this long is closed (default 30s)",
	"http-public-reads":                     "with --acl-mode all, keep the admin port's reads of the state (KV, routes, watch, audit, status page) open without the token (default false)",
	"http-trusted-proxies":                  "IPs or CIDRs (comma-separated) of HTTP proxies in front of the admin port whose X-Forwarded-For names the caller (default none)",
	"cluster-test":                          "cluster-test mode: answer route queries for topics this cluster does not hold with the production name servers' route (reference clusterTest, default false)",
	"product-env-name":                      "production's unit for the address service, nsaddr-<unit> (reference productEnvName, default center)",
	"production-namesrv-addr":               "production name servers host:port;host:port for cluster-test mode; before rocketmq.namesrv.addr, NAMESRV_ADDR and the address service",
	"production-namesrv-domain":             "address service of the production name servers for cluster-test mode, host or host:port (rocketmq.namesrv.domain)",
}

func registerFlags(fs *flag.FlagSet) *flagValues {
	fl := &flagValues{values: map[string]string{}}
	fs.StringVar(&fl.configFile, "c", "", "properties file in the reference NameServer's format")
	fs.BoolVar(&fl.print, "p", false, "print the effective configuration and exit")
	fs.BoolVar(&fl.version, "version", false, "print the release, module version and commit of this build and exit")
	for name := range flagKeys {
		key := flagKeys[name]
		if name == "cluster-insecure" || name == "http-pprof" || name == "audit" || name == "http-public-reads" || name == "cluster-test" ||
			name == "new-cluster" || name == "address-service-zone-only" {
			// A switch: --cluster-insecure alone, or =true/=false.
			fs.BoolFunc(name, flagHelp[name], func(v string) error { fl.values[key] = v; return nil })
			continue
		}
		fs.Func(name, flagHelp[name], func(v string) error { fl.values[key] = v; return nil })
	}
	return fl
}
