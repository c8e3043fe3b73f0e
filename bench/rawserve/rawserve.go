// Package rawserve is the `raftns-bench serve-raw` command: the servers
// that raftns-bench compare measures RaftNS against. One is an Apply-only
// front end over plain hashicorp/raft (the write ceiling), the other a
// server answering every request with one precomputed frame (the read
// ceiling).
//
// They run from the load generator's binary, so the product binary carries
// no benchmark code. The same request code can perform differently from one
// binary to another (its layout in memory changes with everything else
// linked in); docs/contributors/benchmarks.md says how the ratios are checked for that.
package rawserve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/internal/gctarget"
	"github.com/raftns/raftns/protocol/remoting"
	"go.etcd.io/bbolt"
)

// Command is the name of the raftns-bench subcommand that runs Main.
const Command = "serve-raw"

// errUsage marks a bad command line.
var errUsage = errors.New("raftns-bench serve-raw: usage")

// rawOptions are the flags of serve-raw.
type rawOptions struct {
	mode       string // "raft" or "ceiling"
	id         string
	dir        string
	raftAddr   string
	clientAddr string
	peers      string
	bodyFile   string
	multiplier int
}

// Main parses the flags of serve-raw (args after the command name) and
// serves until SIGTERM; it returns the exit status: 2 for a bad command
// line, 1 when serving failed.
func Main(args []string, stderr io.Writer) int {
	var o rawOptions
	fs := flag.NewFlagSet("raftns-bench serve-raw", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.mode, "mode", "raft", "raft (Apply-only front end) or ceiling (precomputed answer)")
	fs.StringVar(&o.id, "id", "r1", "raft server id")
	fs.StringVar(&o.dir, "dir", "", "data directory (raft mode)")
	fs.StringVar(&o.raftAddr, "raft-addr", "", "raft transport address (raft mode)")
	fs.StringVar(&o.clientAddr, "listen", "", "remoting address to serve")
	fs.StringVar(&o.peers, "peers", "", "initial voters ID=HOST:PORT,... (raft mode; empty: alone)")
	fs.StringVar(&o.bodyFile, "body", "", "file holding the answer body (ceiling mode)")
	fs.IntVar(&o.multiplier, "raft-multiplier", 1, "scale of Raft timers, as raftns --raft-multiplier")
	gcPercent := fs.Int("gc-percent", 0, "garbage collector heap target, as raftns --gc-percent (default: as a member, GOGC if set, else 300)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// The raw servers run with the members' garbage collector target, so
	// that a ratio compares Raft use, not runtime settings.
	gctarget.Apply(*gcPercent, os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch o.mode {
	case "raft":
		err = serveRawRaft(ctx, o)
	case "ceiling":
		err = serveCeiling(ctx, o)
	default:
		err = fmt.Errorf("%w: -mode %q: want raft or ceiling", errUsage, o.mode)
	}
	if err != nil {
		fmt.Fprintln(stderr, "raftns-bench serve-raw:", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// serveRemoting serves h on o.clientAddr until ctx ends.
func serveRemoting(ctx context.Context, addr string, h remoting.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := remoting.NewServer(remoting.DefaultServerConfig(), h, nil)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// serveCeiling answers every request with SUCCESS and the body read from
// o.bodyFile: what a name server costs when the answer is free.
func serveCeiling(ctx context.Context, o rawOptions) error {
	b, err := os.ReadFile(o.bodyFile)
	if err != nil {
		return err
	}
	return serveRemoting(ctx, o.clientAddr, ceilingHandler{&remoting.Command{Code: remoting.Success, Language: "JAVA", Version: 479, Body: b}})
}

// ceilingHandler answers every request with resp. It answers inline, on the
// connection's read goroutine, as RaftNS answers a cached route: the
// ceiling is what the remoting server costs with a free answer, on its
// fastest path.
type ceilingHandler struct{ resp *remoting.Command }

func (h ceilingHandler) ServeRemoting(context.Context, *remoting.Conn, *remoting.Command) *remoting.Command {
	return h.resp
}

func (h ceilingHandler) ServeInline(*remoting.Conn, *remoting.Command) (*remoting.Command, bool) {
	return h.resp, true
}

// serveRawRaft runs hashicorp/raft on the stores a RaftNS member uses
// (raft-boltdb with fsync, a 512-entry log cache, file snapshots, the same
// Raft settings) and answers every request by applying its body as one log
// entry: the fastest a Raft-replicated write can be with this library here.
func serveRawRaft(ctx context.Context, o rawOptions) error {
	if o.dir == "" || o.raftAddr == "" || o.clientAddr == "" {
		return fmt.Errorf("%w: raft mode needs -dir, -raft-addr and -listen", errUsage)
	}
	peers, err := parsePeers(o.peers)
	if err != nil {
		return err
	}
	logger := hclog.New(&hclog.LoggerOptions{Name: "raw-raft-" + o.id, Level: hclog.Warn, Output: os.Stderr})
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	bolt, err := raftboltdb.New(raftboltdb.Options{
		Path:        filepath.Join(o.dir, "raft.db"),
		BoltOptions: &bbolt.Options{NoFreelistSync: true, Timeout: time.Second},
	})
	if err != nil {
		return err
	}
	defer bolt.Close()
	logs, err := raft.NewLogCache(512, bolt)
	if err != nil {
		return err
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(o.dir, 2, logger)
	if err != nil {
		return err
	}
	trans, err := raft.NewTCPTransportWithLogger(o.raftAddr, nil, 3, 10*time.Second, logger)
	if err != nil {
		return err
	}
	defer trans.Close()
	rc := rawRaftConfig(o.id, o.multiplier)
	rc.Logger = logger
	r, err := raft.NewRaft(rc, &countingFSM{}, logs, bolt, snaps, trans)
	if err != nil {
		return err
	}
	defer r.Shutdown()
	servers := peers
	if len(servers) == 0 {
		servers = []raft.Server{{ID: raft.ServerID(o.id), Address: trans.LocalAddr()}}
	}
	if err := r.BootstrapCluster(raft.Configuration{Servers: servers}).Error(); err != nil && err != raft.ErrCantBootstrap {
		return err
	}
	return serveRemoting(ctx, o.clientAddr, remoting.HandlerFunc(func(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
		if r.State() != raft.Leader {
			return remoting.NewResponse(req, remoting.SystemError, "not leader")
		}
		if err := r.Apply(req.Body, 10*time.Second).Error(); err != nil {
			return remoting.NewResponse(req, remoting.SystemError, err.Error())
		}
		return remoting.NewResponse(req, remoting.Success, "")
	}))
}

// parsePeers reads -peers, ID=HOST:PORT entries separated by commas.
func parsePeers(list string) ([]raft.Server, error) {
	var servers []raft.Server
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		id, addr, ok := strings.Cut(p, "=")
		if !ok || id == "" || addr == "" {
			return nil, fmt.Errorf("%w: peer %q: want ID=HOST:PORT", errUsage, p)
		}
		servers = append(servers, raft.Server{ID: raft.ServerID(id), Address: raft.ServerAddress(addr)})
	}
	return servers, nil
}

// rawRaftConfig is the Raft configuration a RaftNS member runs with.
func rawRaftConfig(id string, multiplier int) *raft.Config {
	cfg := cluster.DefaultConfig()
	cfg.ID, cfg.RaftMultiplier = id, max(multiplier, 1)
	return cfg.RaftSettings()
}

// countingFSM applies nothing but counts entries.
type countingFSM struct{ applied atomic.Uint64 }

func (f *countingFSM) Apply(*raft.Log) any { f.applied.Add(1); return nil }

func (f *countingFSM) Snapshot() (raft.FSMSnapshot, error) {
	return countSnapshot(f.applied.Load()), nil
}

func (f *countingFSM) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	var n uint64
	_, err := fmt.Fscan(rc, &n)
	f.applied.Store(n)
	return err
}

type countSnapshot uint64

func (s countSnapshot) Persist(sink raft.SnapshotSink) error {
	if _, err := fmt.Fprint(sink, uint64(s)); err != nil {
		sink.Cancel()
		return err
	}
	return sink.Close()
}

func (countSnapshot) Release() {}
