package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/protocol/remoting"
)

// readyTimeout bounds waiting for a member, or a leader, to become ready.
const readyTimeout = 60 * time.Second

// env is the set of members a scenario loads.
type env struct {
	opts     commonOptions
	members  []*member
	workDir  string
	tempDir  bool
	progress io.Writer
}

// newEnv names the -addrs members, or starts opts.Members members and waits
// until all are ready.
func newEnv(ctx context.Context, opts commonOptions, progress io.Writer) (*env, error) {
	e := &env{opts: opts, progress: progress}
	if !opts.starts() {
		for i, addr := range opts.Addrs {
			m := &member{Member: &launch.Member{ID: fmt.Sprintf("m%d", i+1), ClientAddr: addr}, externalPID: opts.PID}
			if len(opts.HTTP) > 0 {
				m.HTTPAddr = opts.HTTP[i]
			}
			e.members = append(e.members, m)
		}
		return e, nil
	}
	if err := e.startMembers(ctx, opts.Members); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// startMembers starts n members with the same peer list (none for n = 1)
// and waits until every one is ready.
func (e *env) startMembers(ctx context.Context, n int) error {
	if err := e.makeWorkDir(); err != nil {
		return err
	}
	var peers []string
	for i := 1; i <= n; i++ {
		m, err := e.newMember(fmt.Sprintf("n%d", i))
		if err != nil {
			return err
		}
		e.members = append(e.members, m)
		peers = append(peers, m.ID+"="+m.ClusterAddr)
	}
	for _, m := range e.members {
		m.Args = []string{"--log-level", "warn"}
		if n > 1 {
			m.Args = append(m.Args, "--peers", strings.Join(peers, ","))
		}
		m.Args = append(m.Args, e.opts.MemberArgs...)
		if err := m.Start(); err != nil {
			return err
		}
	}
	e.logf("started %d member(s) from %s in %s", n, e.opts.Raftns, e.workDir)
	// A new cluster's leader writes its first entries (run-time settings,
	// storage identities) after it is ready; a scenario that counts log
	// entries must not count them.
	for _, m := range e.members {
		if err := m.WaitSettled(ctx, readyTimeout); err != nil {
			return err
		}
	}
	return nil
}

func (e *env) makeWorkDir() error {
	if e.workDir != "" {
		return nil
	}
	if e.opts.WorkDir != "" {
		e.workDir = e.opts.WorkDir
		return os.MkdirAll(e.workDir, 0o755)
	}
	dir, err := os.MkdirTemp("", "raftns-bench-")
	if err != nil {
		return err
	}
	e.workDir, e.tempDir = dir, true
	return nil
}

// newMember prepares a member with OS-chosen ports; the data directory is
// fresh: a leftover one from an earlier run in -workdir is removed.
func (e *env) newMember(id string) (*member, error) {
	dataDir := filepath.Join(e.workDir, id)
	if err := os.RemoveAll(dataDir); err != nil {
		return nil, err
	}
	lm, err := launch.NewMember(e.opts.Raftns, id, dataDir)
	if err != nil {
		return nil, err
	}
	lm.LogFile = filepath.Join(e.workDir, id+".log")
	return &member{Member: lm}, nil
}

// stopMembers shuts down the started members and forgets them.
func (e *env) stopMembers() {
	for _, m := range e.members {
		m.Stop(10 * time.Second)
	}
	e.members = nil
}

// close stops started members and removes a temporary work directory
// unless -keep was given.
func (e *env) close() {
	if !e.opts.starts() {
		return
	}
	e.stopMembers()
	if e.tempDir && !e.opts.Keep {
		os.RemoveAll(e.workDir)
	} else if e.workDir != "" {
		e.logf("member data and logs kept in %s", e.workDir)
	}
}

func (e *env) logf(format string, args ...any) {
	fmt.Fprintf(e.progress, "raftns-bench: "+format+"\n", args...)
}

// newClient returns a client with its own connections (one per member).
func (e *env) newClient() *nsclient.Client {
	return nsclient.New(remoting.ClientConfig{DialTimeout: e.opts.Timeout, RequestTimeout: e.opts.Timeout, WriteTimeout: e.opts.Timeout})
}

// clientAddrs returns the members' RocketMQ addresses.
func (e *env) clientAddrs() []string {
	out := make([]string, len(e.members))
	for i, m := range e.members {
		out[i] = m.ClientAddr
	}
	return out
}

// hasHTTP reports whether every member's admin address is known.
func (e *env) hasHTTP() bool {
	for _, m := range e.members {
		if m.HTTPAddr == "" {
			return false
		}
	}
	return true
}
