package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/rawserve"
	"github.com/raftns/raftns/transport/nsclient"
	"github.com/raftns/raftns/transport/remoting"
)

// rawProc is a `raftns serve-raw` child process, started from the members'
// binary: a raw Raft node or the read ceiling server.
type rawProc struct {
	id         string
	clientAddr string
	raftAddr   string
	cmd        *exec.Cmd
	done       chan struct{}
}

// start runs raftns serve-raw with args plus -listen p.clientAddr; output
// goes to logPath.
func (p *rawProc) start(raftns, logPath string, args ...string) error {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(raftns, append([]string{rawserve.Command, "-listen", p.clientAddr}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	launch.DieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", p.id, err)
	}
	p.cmd, p.done = cmd, make(chan struct{})
	go func() {
		cmd.Wait()
		close(p.done)
	}()
	return nil
}

// stop ends the process: SIGTERM, then SIGKILL after 5 s.
func (p *rawProc) stop() {
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

func (p *rawProc) String() string {
	return fmt.Sprintf("%s client=%s pid=%d (started by raftns-bench: %s)", p.id, p.clientAddr, p.cmd.Process.Pid, strings.Join(p.cmd.Args, " "))
}

// rawCluster is n raw Raft nodes started by compare.
type rawCluster struct{ nodes []*rawProc }

// startRawCluster starts n raw Raft nodes under dir and waits until one of
// them, returned as the leader, applies a write. probe is one request.
func startRawCluster(ctx context.Context, raftns, dir, name string, n int, extra []string, probe func(ctx context.Context, addr string) error) (*rawCluster, *rawProc, error) {
	rc := &rawCluster{}
	var peers []string
	for i := 1; i <= n; i++ {
		p := &rawProc{id: fmt.Sprintf("%s-r%d", name, i)}
		for _, a := range []*string{&p.clientAddr, &p.raftAddr} {
			addr, err := launch.FreeAddr()
			if err != nil {
				return nil, nil, err
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
		if err := p.start(raftns, filepath.Join(dir, p.id+".log"), append(args, extra...)...); err != nil {
			rc.stop()
			return nil, nil, err
		}
	}
	var leader *rawProc
	err := launch.Poll(ctx, readyTimeout, 50*time.Millisecond, "a raw raft leader ("+name+")", func() (bool, error) {
		for _, p := range rc.nodes {
			if closedChan(p.done) {
				return false, fmt.Errorf("%w: raw raft node %s (log: %s)", launch.ErrExited, p.id, filepath.Join(dir, p.id+".log"))
			}
			if probe(ctx, p.clientAddr) == nil {
				leader = p
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		rc.stop()
		return nil, nil, err
	}
	return rc, leader, nil
}

func (rc *rawCluster) stop() {
	for _, p := range rc.nodes {
		p.stop()
	}
}

// startCeiling starts the read ceiling server answering body; extra are
// more serve-raw flags (the members' garbage collector target).
func startCeiling(ctx context.Context, raftns, dir string, body []byte, extra []string) (*rawProc, error) {
	p := &rawProc{id: "ceiling"}
	var err error
	if p.clientAddr, err = launch.FreeAddr(); err != nil {
		return nil, err
	}
	bodyPath := filepath.Join(dir, "ceiling-body.json")
	if err := os.WriteFile(bodyPath, body, 0o644); err != nil {
		return nil, err
	}
	if err := p.start(raftns, filepath.Join(dir, "ceiling.log"), append([]string{"-mode", "ceiling", "-body", bodyPath}, extra...)...); err != nil {
		return nil, err
	}
	c := nsclient.New(remoting.ClientConfig{DialTimeout: time.Second, RequestTimeout: time.Second})
	defer c.Close()
	err = launch.Poll(ctx, readyTimeout, 20*time.Millisecond, "the ceiling server", func() (bool, error) {
		if closedChan(p.done) {
			return false, errors.New("the ceiling server exited")
		}
		_, err := c.Invoke(ctx, p.clientAddr, &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: nsclient.Version5})
		return err == nil, nil
	})
	if err != nil {
		p.stop()
		return nil, err
	}
	return p, nil
}

func closedChan(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
