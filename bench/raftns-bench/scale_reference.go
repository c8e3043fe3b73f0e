package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// referenceMain is the reference NameServer's entry point in the
// rocketmq-namesrv jar.
const referenceMain = "org.apache.rocketmq.namesrv.NamesrvStartup"

// referenceTarget is count independent reference NameServers (Apache
// RocketMQ's NamesrvStartup, run by java from a classpath such as the one
// the interop harness builds), on loopback ports, with their homes, logs
// and configuration in dir.
type referenceTarget struct {
	classpath string
	jvm       []string
	nodes     []*referenceNode
}

// referenceNode is one reference NameServer.
type referenceNode struct {
	id, addr, dir string
	proc          *launch.Process
}

// startReference starts count reference NameServers under dir and waits
// until each listens.
func startReference(ctx context.Context, classpath string, jvm []string, dir string, count int) (*referenceTarget, error) {
	t := &referenceTarget{classpath: classpath, jvm: jvm}
	for i := 1; i <= count; i++ {
		addr, err := launch.FreeAddr()
		if err != nil {
			return nil, err
		}
		id := fmt.Sprintf("ref%d", i)
		t.nodes = append(t.nodes, &referenceNode{id: id, addr: addr, dir: filepath.Join(dir, id),
			proc: &launch.Process{LogFile: filepath.Join(dir, id+".log"), DieWithParent: true}})
	}
	for i := range t.nodes {
		if err := t.start(i); err != nil {
			t.close()
			return nil, err
		}
	}
	for _, n := range t.nodes {
		if err := n.awaitListening(ctx); err != nil {
			t.close()
			return nil, err
		}
	}
	return t, nil
}

// config is the node's namesrv.properties: bound to loopback, and
// scanAvailableNameSrv off so that its own client never connects to the
// machine's other addresses.
func (n *referenceNode) config() string {
	_, port, _ := net.SplitHostPort(n.addr)
	return "listenPort=" + port + "\nbindAddress=127.0.0.1\nscanAvailableNameSrv=false\n" +
		"kvConfigPath=" + filepath.Join(n.dir, "kvConfig.json") + "\n"
}

func (t *referenceTarget) start(i int) error {
	n := t.nodes[i]
	if err := os.MkdirAll(n.dir, 0o755); err != nil {
		return err
	}
	conf := filepath.Join(n.dir, "namesrv.properties")
	if err := os.WriteFile(conf, []byte(n.config()), 0o644); err != nil {
		return err
	}
	args := append(append([]string{}, t.jvm...), "-Duser.home="+n.dir, "-Drocketmq.home.dir="+n.dir,
		"-cp", t.classpath, referenceMain, "-c", conf)
	return n.proc.Launch("reference NameServer "+n.id, "java", args...)
}

// referenceStartTimeout bounds a JVM's start: on a loaded two-core machine
// three starting at once took more than a minute.
const referenceStartTimeout = 5 * time.Minute

// awaitListening waits until the node accepts connections on its port.
func (n *referenceNode) awaitListening(ctx context.Context) error {
	return launch.Poll(ctx, referenceStartTimeout, 50*time.Millisecond, "reference NameServer "+n.id+" listening", func() (bool, error) {
		if n.proc.Exited() {
			return false, fmt.Errorf("%w: reference NameServer %s (log: %s)", launch.ErrExited, n.id, n.proc.LogFile)
		}
		c, err := net.DialTimeout("tcp", n.addr, 500*time.Millisecond)
		if err != nil {
			return false, nil
		}
		c.Close()
		return true, nil
	})
}

func (t *referenceTarget) label() string {
	return fmt.Sprintf("reference 5.5.0, %d NameServers", len(t.nodes))
}

func (t *referenceTarget) addrs() []string {
	out := make([]string, len(t.nodes))
	for i, n := range t.nodes {
		out[i] = n.addr
	}
	return out
}

func (t *referenceTarget) ids() []string {
	out := make([]string, len(t.nodes))
	for i, n := range t.nodes {
		out[i] = n.id
	}
	return out
}

func (t *referenceTarget) pid(i int) int { return t.nodes[i].proc.Pid() }

// heapBytes is the used part of the JVM's heap (survivor, eden and old
// spaces) as jstat reports it.
func (t *referenceTarget) heapBytes(ctx context.Context, i int) (int64, bool) {
	pid := t.pid(i)
	if pid == 0 {
		return 0, false
	}
	out, err := exec.CommandContext(ctx, "jstat", "-gc", strconv.Itoa(pid)).Output()
	if err != nil {
		return 0, false
	}
	return parseJstatUsed(out)
}

// parseJstatUsed sums the S0U, S1U, EU and OU columns (KiB) of `jstat -gc`.
func parseJstatUsed(out []byte) (int64, bool) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 {
		return 0, false
	}
	head, vals := strings.Fields(lines[0]), strings.Fields(lines[len(lines)-1])
	if len(head) != len(vals) {
		return 0, false
	}
	var kib float64
	found := 0
	for i, h := range head {
		switch h {
		case "S0U", "S1U", "EU", "OU":
			v, err := strconv.ParseFloat(vals[i], 64)
			if err != nil {
				return 0, false
			}
			kib += v
			found++
		}
	}
	return int64(kib * 1024), found == 4
}

// restartable is the first NameServer: they are all alike.
func (t *referenceTarget) restartable(context.Context) (int, error) { return 0, nil }

func (t *referenceTarget) stop(i int) { t.nodes[i].proc.Stop(10 * time.Second) }

// snapshot is nil: a reference NameServer keeps no state on disk and
// learns it again from the brokers' registrations.
func (t *referenceTarget) snapshot(context.Context) (*scaleSnapshot, error) { return nil, nil }

func (t *referenceTarget) restoreMs(context.Context, int) (float64, bool) { return 0, false }

func (t *referenceTarget) describe() []string {
	var out []string
	for i, n := range t.nodes {
		out = append(out, fmt.Sprintf("%s client=%s pid=%d (started by raftns-bench: java %s ... %s)", n.id, n.addr, t.pid(i),
			strings.Join(t.jvm, " "), referenceMain))
	}
	return out
}

func (t *referenceTarget) close() {
	for i := range t.nodes {
		t.stop(i)
	}
}
