package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/raftns/raftns/bench/rawserve"
	"github.com/raftns/raftns/internal/launch"
)

// rawProc is a `raftns-bench serve-raw` child process, started through
// launch from this program's own binary: a raw Raft node or the read
// ceiling server.
type rawProc struct {
	launch.Process
	id         string
	clientAddr string
	raftAddr   string
}

// start runs this program's serve-raw with args plus -listen
// p.clientAddr; output goes to logPath.
func (p *rawProc) start(logPath string, args ...string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding raftns-bench's own binary for serve-raw: %w", err)
	}
	p.LogFile, p.DieWithParent = logPath, true
	return p.Launch(p.id, self, append([]string{rawserve.Command, "-listen", p.clientAddr}, args...)...)
}

// stop ends the process: SIGTERM, then SIGKILL after 5 s.
func (p *rawProc) stop() { p.Stop(5 * time.Second) }

func (p *rawProc) String() string {
	return fmt.Sprintf("%s client=%s pid=%d (started by raftns-bench: %s)", p.id, p.clientAddr, p.Pid(), strings.Join(p.CommandLine(), " "))
}

// rawCluster is n raw Raft nodes started by compare, and the one that
// applied the first write.
type rawCluster struct {
	nodes  []*rawProc
	leader *rawProc
}

// startRawCluster starts n raw Raft nodes under dir and waits until one of
// them, the leader, applies a write. probe is one request.
func startRawCluster(ctx context.Context, dir, name string, n int, extra []string, probe func(ctx context.Context, addr string) error) (*rawCluster, error) {
	rc := &rawCluster{}
	var peers []string
	for i := 1; i <= n; i++ {
		p := &rawProc{id: fmt.Sprintf("%s-r%d", name, i)}
		for _, a := range []*string{&p.clientAddr, &p.raftAddr} {
			addr, err := launch.FreeAddr()
			if err != nil {
				return nil, err
			}
			*a = addr
		}
		rc.nodes = append(rc.nodes, p)
		peers = append(peers, p.id+"="+p.raftAddr)
	}
	for _, p := range rc.nodes {
		args := []string{"-mode", "raft", "-id", p.id, "-dir", filepath.Join(dir, p.id), "-raft-addr", p.raftAddr}
		if n > 1 {
			args = append(args, "-peers", strings.Join(peers, ","))
		}
		if err := p.start(filepath.Join(dir, p.id+".log"), append(args, extra...)...); err != nil {
			rc.stop()
			return nil, err
		}
	}
	err := launch.Poll(ctx, readyTimeout, 50*time.Millisecond, "a raw raft leader ("+name+")", func() (bool, error) {
		for _, p := range rc.nodes {
			if p.Exited() {
				return false, fmt.Errorf("%w: raw raft node %s (log: %s)", launch.ErrExited, p.id, filepath.Join(dir, p.id+".log"))
			}
			if probe(ctx, p.clientAddr) == nil {
				rc.leader = p
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		rc.stop()
		return nil, err
	}
	return rc, nil
}

func (rc *rawCluster) stop() {
	for _, p := range rc.nodes {
		p.stop()
	}
}

// startCeiling starts the read ceiling server answering body and waits
// until probe, one request, succeeds; extra are more serve-raw flags (the
// members' garbage collector target).
func startCeiling(ctx context.Context, dir string, body []byte, extra []string, probe func(ctx context.Context, addr string) error) (*rawProc, error) {
	p := &rawProc{id: "ceiling"}
	var err error
	if p.clientAddr, err = launch.FreeAddr(); err != nil {
		return nil, err
	}
	bodyPath := filepath.Join(dir, "ceiling-body.json")
	if err := os.WriteFile(bodyPath, body, 0o644); err != nil {
		return nil, err
	}
	if err := p.start(filepath.Join(dir, "ceiling.log"), append([]string{"-mode", "ceiling", "-body", bodyPath}, extra...)...); err != nil {
		return nil, err
	}
	err = launch.Poll(ctx, readyTimeout, 20*time.Millisecond, "the ceiling server", func() (bool, error) {
		if p.Exited() {
			return false, errors.New("the ceiling server exited")
		}
		return probe(ctx, p.clientAddr) == nil, nil
	})
	if err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}
