package chaos

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// memberArgs are the flags every member runs with: LAN Raft timers (an
// election timeout of about 1 s), brokers without their own timeout expire
// after 8 s, the expiry scan runs every second, a follower without leader
// contact stops serving reads after 3 s, and a closed broker connection never
// expires a broker by itself (the workload's brokers register through
// short-lived client connections).
var memberArgs = []string{"--raft-multiplier", "1", "--broker-expiry", "8s", "--scan-interval", "1s",
	"--conn-close-grace", "10m", "--max-stale", "3s", "--log-level", "info"}

// maxStale is memberArgs' --max-stale.
const maxStale = 3 * time.Second

// member is one raftns process behind its proxy.
type member struct {
	*launch.Member
	proxy *proxy
	disk  *smallDisk // nil unless this member's data dir is a small tmpfs
	log   *os.File
	// paused is true between SIGSTOP and SIGCONT.
	paused bool
}

// procCluster is a set of raftns processes whose cluster traffic goes
// through the network's proxies.
type procCluster struct {
	bin string
	dir string
	nw  *network

	mu      sync.Mutex
	members map[string]*member
	order   []string // ids of the current voters and joiners, in start order
}

func newProcCluster(bin, dir string) *procCluster {
	return &procCluster{bin: bin, dir: dir, nw: newNetwork(), members: map[string]*member{}}
}

// prepare creates member id with fresh ports and its proxy; with disk > 0
// its data dir is a tmpfs of that many bytes.
func (c *procCluster) prepare(id string, disk int64) (*member, error) {
	dataDir := filepath.Join(c.dir, id)
	var sd *smallDisk
	if disk > 0 {
		var err error
		if sd, err = mountSmallDisk(dataDir, disk); err != nil {
			return nil, err
		}
	}
	lm, err := launch.NewMember(c.bin, id, dataDir)
	if err != nil {
		return nil, err
	}
	p, err := c.nw.addProxy(id, lm.ClusterAddr)
	if err != nil {
		return nil, err
	}
	log, err := os.Create(filepath.Join(c.dir, id+".log"))
	if err != nil {
		return nil, err
	}
	lm.Output = log
	lm.DieWithParent = true
	m := &member{Member: lm, proxy: p, disk: sd, log: log}
	c.mu.Lock()
	c.members[id] = m
	c.order = append(c.order, id)
	c.mu.Unlock()
	return m, nil
}

// start starts m's process with args after memberArgs.
func (c *procCluster) start(m *member, args ...string) error {
	m.Args = append(append(append([]string{}, memberArgs...), "--cluster-advertise", m.proxy.addr()), args...)
	if err := m.Start(); err != nil {
		return err
	}
	c.nw.setPid(m.ID, m.Pid())
	return nil
}

// restart starts a stopped member again with the arguments of its last start.
func (c *procCluster) restart(m *member) error {
	if err := m.Start(); err != nil {
		return err
	}
	c.nw.setPid(m.ID, m.Pid())
	return nil
}

// boot starts n members that bootstrap together; diskMember (or -1) gets a
// small disk.
func (c *procCluster) boot(n int, diskMember int, diskSize int64) error {
	var ms []*member
	var peers []string
	for i := range n {
		size := int64(0)
		if i == diskMember {
			size = diskSize
		}
		m, err := c.prepare(fmt.Sprintf("n%d", i+1), size)
		if err != nil {
			return err
		}
		ms = append(ms, m)
		peers = append(peers, m.ID+"="+m.proxy.addr())
	}
	for _, m := range ms {
		if err := c.start(m, "--peers", strings.Join(peers, ",")); err != nil {
			return err
		}
	}
	return nil
}

// get returns member id.
func (c *procCluster) get(id string) *member {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.members[id]
}

// current lists the members in the configuration, in start order.
func (c *procCluster) current() []*member {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*member, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.members[id])
	}
	return out
}

// ids lists the ids of current members.
func (c *procCluster) ids() []string {
	var out []string
	for _, m := range c.current() {
		out = append(out, m.ID)
	}
	return out
}

// drop forgets a removed member (its process must have been stopped).
func (c *procCluster) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, o := range c.order {
		if o == id {
			c.order = append(c.order[:i:i], c.order[i+1:]...)
		}
	}
}

// leader returns the member that reports itself leader in office, or nil.
func (c *procCluster) leader(ctx context.Context) *member {
	for _, m := range c.current() {
		if m.paused || m.Exited() {
			continue
		}
		if st, err := m.Status(ctx); err == nil && st.IsLeader() {
			return m
		}
	}
	return nil
}

// kill sends SIGKILL (after SIGCONT, so a paused member dies too).
func (c *procCluster) kill(m *member) {
	c.cont(m)
	m.Kill()
	c.nw.setPid(m.ID, 0)
}

// pause sends SIGSTOP.
func (c *procCluster) pause(m *member) error {
	if pid := m.Pid(); pid != 0 && !m.Exited() {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			return err
		}
		m.paused = true
	}
	return nil
}

// cont sends SIGCONT to a paused member.
func (c *procCluster) cont(m *member) {
	if m.paused {
		if pid := m.Pid(); pid != 0 {
			syscall.Kill(pid, syscall.SIGCONT)
		}
		m.paused = false
	}
}

// removePeer asks any running member's admin API to remove id at once,
// without a drain: the nemesis stops the member right after.
func (c *procCluster) removePeer(ctx context.Context, via *member, id string) error {
	resp, err := via.Do(ctx, http.MethodDelete, "/v1/peers/"+id+"?drain=0s")
	if err != nil {
		return err
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode/100 == 2:
		return nil
	case resp.StatusCode == http.StatusNotFound:
		return nil // not in the configuration (its join never completed): nothing to remove
	}
	return fmt.Errorf("remove %s via %s: %s", id, via.ID, resp.Status)
}

// stop kills every process, closes the proxies and unmounts small disks.
func (c *procCluster) stop() {
	c.mu.Lock()
	all := make([]*member, 0, len(c.members))
	for _, m := range c.members {
		all = append(all, m)
	}
	c.mu.Unlock()
	for _, m := range all {
		c.kill(m)
		m.log.Close()
	}
	c.nw.close()
	for _, m := range all {
		if m.disk != nil {
			m.disk.unmount()
		}
	}
}

// dumpGoroutines sends SIGQUIT to every running member: the Go runtime
// writes every goroutine's stack to the member's log and exits, which is
// what a run that did not converge needs for its diagnosis.
func (c *procCluster) dumpGoroutines() {
	for _, m := range c.current() {
		c.cont(m)
		if pid := m.Pid(); pid != 0 && !m.Exited() {
			syscall.Kill(pid, syscall.SIGQUIT)
		}
	}
}
