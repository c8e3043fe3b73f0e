package cluster

import (
	"crypto/tls"
	"fmt"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
)

// Peer is one initial voter: its Raft ID and cluster address.
type Peer struct {
	ID   string
	Addr string
}

// Config configures a Node. Durations that brokers or operators can observe
// have the reference NameServer's defaults.
type Config struct {
	// ID is the member's stable Raft ID.
	ID string
	// DataDir holds the Raft log, stable store and snapshots.
	DataDir string
	// ClusterAddr is the advertised host:port of the cluster port (Raft and
	// internal RPCs). The listener itself is passed to New.
	ClusterAddr string
	// TLS, when set, makes the cluster port mutual TLS (LoadTLS builds it
	// from PEM files). The member then accepts only connections presenting
	// a certificate signed by ClientCAs, and dials other members with its
	// certificate, verifying theirs against RootCAs for the host of the
	// address it dials: every member's certificate must carry its cluster
	// address's host as an IP or DNS SAN. Nil: plain TCP, unauthenticated.
	// TLS and plain members cannot talk to each other.
	TLS *tls.Config
	// ClusterKey, when set, is a secret shared by every member: each new
	// connection to the cluster port must answer a challenge–response
	// (HMAC-SHA256 over fresh nonces from both sides) before it may speak
	// Raft or RPC, and members prove it when they dial. It authenticates
	// connections, it does not encrypt them; it combines with TLS.
	// LoadClusterKey reads it from a file.
	ClusterKey []byte
	// ClientAddr and HTTPAddr are published in the member directory.
	ClientAddr string
	HTTPAddr   string
	// Zone is this member's zone label, published in the member directory
	// once the cluster version allows it (feature.MemberZones); empty for
	// none (docs/operators/operations.md, "Several zones").
	Zone string
	// AddressZoneOnly makes the address service's answer for a zone list
	// that zone's ready members alone rather than first (ClientAddressesFor).
	AddressZoneOnly bool

	// Peers lists the initial voters, identical on every initial member.
	// Empty with Join empty and Bootstrap true: bootstrap alone.
	Peers []Peer
	// Join lists cluster addresses of existing members to ask for admission.
	Join []string
	// Bootstrap allows a member without Peers and Join to bootstrap a
	// single-member cluster. False: wait to be added by an operator.
	Bootstrap bool
	// NewCluster makes a member on new storage with Peers form a new
	// cluster at once, without asking the peers whether they hold one:
	// for starting again from nothing after every member lost its data.
	// Without it such a member forms a cluster only when every peer
	// answers that it holds none (docs/operators/operations.md, "When a member
	// loses its disk").
	NewCluster bool
	// InitialClusterVersion is the cluster version a cluster this member
	// forms (Peers, or Bootstrap alone) starts at: empty for this release,
	// so that a new cluster uses every feature at once; an older release
	// such as buildinfo.Baseline starts it as that release would, so that
	// members of it may still join until an upgrade is finalized
	// (docs/operators/operations.md, "Upgrading"). It never lowers the version of a
	// cluster that exists.
	InitialClusterVersion string

	// RaftMultiplier scales Raft's timers (1 = the library's LAN defaults).
	RaftMultiplier int
	// PipelinedReplication lets the leader send AppendEntries to a follower
	// without waiting for the previous answer, through the pipeline that
	// ends itself after a refused append (pipeline.go). Off by default:
	// measured under load it did not raise write throughput
	// (docs/contributors/benchmarks.md, "Pipelined replication").
	PipelinedReplication bool

	// BrokerExpiry is the expiry time of brokers that registered no
	// heartbeat timeout of their own (reference: 120 s).
	BrokerExpiry time.Duration
	// ScanInterval is how often the leader looks for silent brokers
	// (reference scanNotActiveBrokerInterval: 5 s).
	ScanInterval time.Duration
	// ConnCloseGrace is how long after a broker's last connection closed the
	// leader waits for a sign of life before expiring it.
	ConnCloseGrace time.Duration
	// Clock measures every lease and its readings must be monotonic;
	// WallClock is only stamped on proposals for people to read. nil is
	// time.Now for both (docs/contributors/design.md, "Time").
	Clock, WallClock func() time.Time
	// ExpiryBatchMax bounds the brokers expired by one log entry.
	ExpiryBatchMax int
	// MassExpiryFraction makes the leader suspect itself when one scan
	// would expire more than this fraction of brokers.
	MassExpiryFraction float64
	// ControllerHeartbeatTimeout is how long a controller-mode broker that
	// sent no timeout of its own may stay silent (the broker's default
	// controllerHeartBeatTimeoutMills).
	ControllerHeartbeatTimeout time.Duration
	// HeartbeatBatchInterval is how often a follower sends what it heard.
	HeartbeatBatchInterval time.Duration
	// MaxStale is how long a follower may go without leader contact and
	// still serve reads.
	MaxStale time.Duration
	// ForwardHold bounds how long a write waits for a leader.
	ForwardHold time.Duration
	// ApplyTimeout bounds one Raft apply (enqueue and commit).
	ApplyTimeout time.Duration
	// PromoteAfter is how long a caught-up non-voter must stay caught up
	// before it is promoted to voter.
	PromoteAfter time.Duration
	// PromoteMaxLag is how many entries a non-voter may lag and still count
	// as caught up.
	PromoteMaxLag uint64
	// DirectoryRefresh is how often the leader re-reads every member's
	// client and admin addresses into the member directory.
	DirectoryRefresh time.Duration
	// RemoveDrain is how long a member being removed keeps serving, no
	// longer listed by the address service, before the leader removes it,
	// when the removal names no drain: longer than the brokers' 10 s
	// refresh of the list.
	RemoveDrain time.Duration

	// SnapshotInterval is how often Raft checks whether to snapshot (each
	// check waits between one and two intervals); SnapshotThreshold is how
	// many entries past the last snapshot the log must hold for a check to
	// take one; TrailingLogs is how many entries a snapshot leaves in the
	// log. A member missing more than the log still holds receives the
	// snapshot and then the entries after it (docs/operators/operations.md,
	// "Snapshots and catching up"). Zero keeps the library's default.
	SnapshotThreshold uint64
	SnapshotInterval  time.Duration
	TrailingLogs      uint64

	// Audit bounds the audit trail, or turns stamping off on this member.
	Audit AuditConfig

	Logger hclog.Logger

	// The fields below are seams for in-process tests; production leaves
	// them nil. RaftConfig overrides the tuned Raft config; Transport, the
	// stores and SnapshotStore replace the on-disk ones.
	RaftConfig    *raft.Config
	Transport     raft.Transport
	LogStore      raft.LogStore
	StableStore   raft.StableStore
	SnapshotStore raft.SnapshotStore

	// linkDown, set by in-process tests only, reports whether the link to
	// the member at a cluster address is cut: every RPC to it fails, as a
	// partition would make it (Raft traffic is cut in the test transport).
	linkDown func(addr string) bool
	// release, set by in-process tests only, is the release the member
	// says it runs in its status; empty is this build's.
	release string
	// withoutForwardLane, set by in-process tests only, makes the member
	// behave as one that predates the forward lane: its cluster port
	// closes muxForward connections.
	withoutForwardLane bool
}

// Snapshot defaults. Checking every 2–4 s lets a leader under heavy writes
// snapshot about every 4096 entries, so a member that returns from an
// outage longer than the log holds receives the (small) state plus at most
// a few thousand entries instead of every entry it missed; an idle or
// lightly written cluster reaches the threshold rarely, and a check alone
// only compares two indexes. The 8192 trailing entries let a member that
// fell a little behind (a restart, a slow disk) replay entries, about a
// second's work, rather than receive a snapshot. docs/operators/operations.md,
// "Snapshots and catching up", has the numbers.
const (
	DefaultSnapshotInterval  = 2 * time.Second
	DefaultSnapshotThreshold = 4096
	DefaultTrailingLogs      = 8192
)

// DefaultRemoveDrain is how long a member being removed keeps serving
// unlisted, three times the brokers' 10 s refresh of the address service.
const DefaultRemoveDrain = 30 * time.Second

// DefaultConfig returns the defaults for a single member in ./data.
func DefaultConfig() *Config {
	return &Config{
		DataDir:                    "./data",
		Bootstrap:                  true,
		RaftMultiplier:             1,
		BrokerExpiry:               120 * time.Second,
		ScanInterval:               5 * time.Second,
		ConnCloseGrace:             5 * time.Second,
		ExpiryBatchMax:             100,
		MassExpiryFraction:         0.3,
		HeartbeatBatchInterval:     time.Second,
		ControllerHeartbeatTimeout: 10 * time.Second,
		MaxStale:                   10 * time.Second,
		ForwardHold:                5 * time.Second,
		ApplyTimeout:               10 * time.Second,
		PromoteAfter:               10 * time.Second,
		PromoteMaxLag:              256,
		DirectoryRefresh:           30 * time.Second,
		RemoveDrain:                DefaultRemoveDrain,
		SnapshotThreshold:          DefaultSnapshotThreshold,
		SnapshotInterval:           DefaultSnapshotInterval,
		TrailingLogs:               DefaultTrailingLogs,
	}
}

// Validate reports the first inconsistent setting.
func (c *Config) Validate() error {
	switch {
	case c.ID == "":
		return fmt.Errorf("%w: member id is empty", ErrBadConfig)
	case c.ClusterAddr == "" && c.Transport == nil:
		return fmt.Errorf("%w: cluster address is empty", ErrBadConfig)
	case c.RaftMultiplier < 1 || c.RaftMultiplier > 10:
		return fmt.Errorf("%w: raft multiplier %d not in 1..10", ErrBadConfig, c.RaftMultiplier)
	case c.BrokerExpiry <= 0 || c.ScanInterval <= 0 || c.ConnCloseGrace < 0:
		return fmt.Errorf("%w: broker expiry, scan interval and close grace must be positive", ErrBadConfig)
	case c.HeartbeatBatchInterval <= 0 || c.MaxStale <= 0 || c.ForwardHold <= 0 || c.ApplyTimeout <= 0 || c.DirectoryRefresh <= 0:
		return fmt.Errorf("%w: heartbeat batch interval, max stale, forward hold, apply timeout and directory refresh must be positive", ErrBadConfig)
	case c.RemoveDrain < 0 || c.RemoveDrain > MaxDrain:
		return fmt.Errorf("%w: remove drain %v not in 0s..%v", ErrBadConfig, c.RemoveDrain, MaxDrain)
	case c.ExpiryBatchMax < 1:
		return fmt.Errorf("%w: expiry batch max must be at least 1", ErrBadConfig)
	case c.MassExpiryFraction <= 0 || c.MassExpiryFraction > 1:
		return fmt.Errorf("%w: mass expiry fraction %v not in (0,1]", ErrBadConfig, c.MassExpiryFraction)
	case len(c.Peers) > 0 && len(c.Join) > 0:
		return fmt.Errorf("%w: peers and join are exclusive", ErrBadConfig)
	}
	if err := c.validateInitialClusterVersion(); err != nil {
		return err
	}
	if err := c.Audit.validate(); err != nil {
		return err
	}
	if c.ClusterKey != nil && len(c.ClusterKey) < MinClusterKeyLen {
		return fmt.Errorf("%w: cluster key is %d bytes, need at least %d", ErrBadConfig, len(c.ClusterKey), MinClusterKeyLen)
	}
	if c.TLS != nil {
		if err := validateTLS(c.TLS); err != nil {
			return err
		}
	}
	if len(c.Peers) > 0 {
		seen := map[string]bool{}
		byAddr := map[string]string{}
		for _, p := range c.Peers {
			if p.ID == "" || p.Addr == "" {
				return fmt.Errorf("%w: peer %q=%q is incomplete", ErrBadConfig, p.ID, p.Addr)
			}
			if seen[p.ID] {
				return fmt.Errorf("%w: peer id %q listed twice", ErrBadConfig, p.ID)
			}
			if other, ok := byAddr[p.Addr]; ok {
				return fmt.Errorf("%w: peers %s and %s have the same cluster address %s: every member needs its own",
					ErrBadConfig, other, p.ID, p.Addr)
			}
			seen[p.ID], byAddr[p.Addr] = true, p.ID
		}
	}
	return nil
}

// RaftSettings returns the Raft configuration a member with this Config
// runs with (without NotifyCh and Logger, which the Node sets). The load
// generator uses it to run plain Raft exactly as tuned here.
func (c *Config) RaftSettings() *raft.Config { return c.raftConfig() }

// raftConfig derives the Raft configuration (docs/contributors/design.md, "Raft configuration and storage").
func (c *Config) raftConfig() *raft.Config {
	if c.RaftConfig != nil {
		rc := *c.RaftConfig
		rc.LocalID = raft.ServerID(c.ID)
		return &rc
	}
	rc := raft.DefaultConfig()
	m := time.Duration(c.RaftMultiplier)
	rc.HeartbeatTimeout *= m
	rc.ElectionTimeout *= m
	rc.LeaderLeaseTimeout *= m
	rc.LocalID = raft.ServerID(c.ID)
	rc.ShutdownOnRemove = false
	rc.LogLevel = "INFO"
	if c.SnapshotThreshold > 0 {
		rc.SnapshotThreshold = c.SnapshotThreshold
	}
	if c.SnapshotInterval > 0 {
		rc.SnapshotInterval = c.SnapshotInterval
	}
	if c.TrailingLogs > 0 {
		rc.TrailingLogs = c.TrailingLogs
	}
	// One AppendEntries carries up to 64 entries (the library's default),
	// and the leader takes up to as many waiting Applies into one log
	// write: a follower catching up after an outage receives 64 entries per
	// fsync instead of 16 (four times faster; see docs/contributors/benchmarks.md).
	// Entries are at most about 400 KiB (registrations are split above
	// that), so one RPC stays bounded. BatchApplyCh stays off: concurrent
	// Applies already share log writes without it (the leader drains the
	// ones waiting to be received), and a buffered apply channel can hold
	// futures that nobody answers when Raft shuts down.
	rc.MaxAppendEntries = 64
	return rc
}

// listedInPeers reports whether this member's ID is among Peers.
func (c *Config) listedInPeers() bool {
	for _, p := range c.Peers {
		if p.ID == c.ID {
			return true
		}
	}
	return false
}
