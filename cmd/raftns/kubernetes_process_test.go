package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
)

// podAddrs are the loopback addresses standing in for one pod's ports.
type podAddrs map[int32]string // container port -> 127.0.0.1:port

// statefulSetPods reads the StatefulSet manifest and turns the command line
// of pod ordinal i into a local one: $(POD_NAME) becomes raftns-i, each pod's
// DNS name raftns-N.<service> with a port becomes the loopback address
// standing in for that port of pod N, the bare DNS name (--advertise-host)
// becomes 127.0.0.1, an unspecified listen host (":9866") becomes pod i's
// own loopback address, and --data-dir a temporary directory.
type statefulSetPods struct {
	sts   *appsv1.StatefulSet
	c     corev1.Container
	addrs []podAddrs
	// files maps a file the pod sees (a mounted Secret's key) to the local
	// file standing in for it.
	files map[string]string
}

func loadStatefulSet(t *testing.T, maxPods int) *statefulSetPods {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", "kubernetes", "statefulset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var sts appsv1.StatefulSet
	if err := yaml.Unmarshal(data, &sts); err != nil {
		t.Fatal(err)
	}
	return podsOf(t, &sts, maxPods)
}

// podsOf gives up to maxPods pods of sts loopback stand-ins for their ports.
func podsOf(t *testing.T, sts *appsv1.StatefulSet, maxPods int) *statefulSetPods {
	t.Helper()
	p := &statefulSetPods{sts: sts, c: sts.Spec.Template.Spec.Containers[0]}
	for i := 0; i < maxPods; i++ {
		a := podAddrs{}
		for _, port := range p.c.Ports {
			addr, err := launch.FreeAddr()
			if err != nil {
				t.Fatal(err)
			}
			a[port.ContainerPort] = addr
		}
		p.addrs = append(p.addrs, a)
	}
	return p
}

func (p *statefulSetPods) podName(i int) string { return fmt.Sprintf("%s-%d", p.sts.Name, i) }

// portOf resolves a probe's named or numbered port.
func (p *statefulSetPods) portOf(name string) int32 {
	for _, cp := range p.c.Ports {
		if cp.Name == name || strconv.Itoa(int(cp.ContainerPort)) == name {
			return cp.ContainerPort
		}
	}
	return 0
}

func (p *statefulSetPods) args(t *testing.T, i int, dataDir string) []string {
	t.Helper()
	dns := regexp.MustCompile(regexp.QuoteMeta(p.sts.Name) + `-(\d+)\.` + regexp.QuoteMeta(p.sts.Spec.ServiceName) + `(:(\d+))?\b`)
	unspecified := regexp.MustCompile(`^(0\.0\.0\.0)?:(\d+)$`)
	var out []string
	for _, arg := range p.c.Args {
		arg = strings.ReplaceAll(arg, "$(POD_NAME)", p.podName(i))
		name, value, ok := strings.Cut(arg, "=")
		if !ok {
			t.Fatalf("argument %q is not --flag=value", arg)
		}
		switch {
		case name == "--data-dir":
			value = dataDir
		case p.files[value] != "":
			value = p.files[value]
		case unspecified.MatchString(value):
			port, _ := strconv.Atoi(unspecified.FindStringSubmatch(value)[2])
			value = p.addr(t, i, int32(port))
		default:
			value = dns.ReplaceAllStringFunc(value, func(m string) string {
				sub := dns.FindStringSubmatch(m)
				n, _ := strconv.Atoi(sub[1])
				if sub[3] == "" {
					return "127.0.0.1"
				}
				port, _ := strconv.Atoi(sub[3])
				return p.addr(t, n, int32(port))
			})
		}
		out = append(out, name+"="+value)
	}
	return out
}

func (p *statefulSetPods) addr(t *testing.T, pod int, port int32) string {
	t.Helper()
	if pod >= len(p.addrs) || p.addrs[pod][port] == "" {
		t.Fatalf("no stand-in for port %d of pod %d", port, pod)
	}
	return p.addrs[pod][port]
}

// start runs pod i as a local process.
func (p *statefulSetPods) start(t *testing.T, i int) *proc {
	t.Helper()
	dir := filepath.Join(t.TempDir(), p.podName(i))
	args := p.args(t, i, dir)
	m := &launch.Member{Binary: raftnsBinary(t), DataDir: dir, Args: args}
	// Member adds --data-dir, --listen, --cluster-addr and --http-addr
	// before Args; the manifest's own (rewritten) flags come later and win.
	m.ClientAddr, m.ClusterAddr, m.HTTPAddr = p.addrs[i][9876], p.addrs[i][9866], p.addrs[i][9856]
	pr := &proc{Member: m, t: t}
	pr.ID = p.podName(i)
	t.Logf("%s: raftns %s", pr.ID, strings.Join(args, " "))
	pr.start()
	return pr
}

// probe sends the manifest's HTTP probe to pod i and reports the status.
func (p *statefulSetPods) probe(i int, pr *corev1.Probe) int {
	url := fmt.Sprintf("http://%s%s", p.addrs[i][p.portOf(pr.HTTPGet.Port.String())], pr.HTTPGet.Path)
	client := &http.Client{Timeout: 2 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestProcessKubernetesStatefulSetAsLocalProcesses runs the StatefulSet's
// command lines for raftns-0..2 as local processes, checks the probes and
// the member IDs, then scales to five as docs/operators/operations.md says: two more
// pods with the same command line wait unready until "peers add" admits
// them (here the admin API call raftnsctl makes).
func TestProcessKubernetesStatefulSetAsLocalProcesses(t *testing.T) {
	pods := loadStatefulSet(t, 5)
	replicas := int(*pods.sts.Spec.Replicas)
	var procs []*proc
	for i := 0; i < replicas; i++ {
		procs = append(procs, pods.start(t, i))
	}
	ready := func(i int) bool { return pods.probe(i, pods.c.ReadinessProbe) == http.StatusOK }
	poll.For(t, 60*time.Second, "the readiness probe of every pod", func() bool {
		for i := range procs {
			if !ready(i) {
				return false
			}
		}
		return true
	})
	for i := range procs {
		if code := pods.probe(i, pods.c.LivenessProbe); code != http.StatusOK {
			t.Fatalf("liveness probe of %s answered %d", pods.podName(i), code)
		}
		st, ok := procs[i].status()
		if !ok || st.ID != pods.podName(i) {
			t.Fatalf("%s reports member ID %q", pods.podName(i), st.ID)
		}
	}
	leader := leaderOf(t, procs)
	wantVoters(t, leader, replicas)
	pods.wantAddressService(t, replicas)

	for i := replicas; i < 5; i++ {
		pr := pods.start(t, i)
		procs = append(procs, pr)
		if err := pr.WaitReady(context.Background(), 2*time.Second); err == nil {
			t.Fatalf("%s, not in --peers, became ready before being added", pr.ID)
		}
		if pr.Exited() {
			t.Fatalf("%s exited:\n%s", pr.ID, pr.Log())
		}
		addPeer(t, leader, pr.ID, pods.addr(t, i, 9866))
	}
	poll.For(t, 60*time.Second, "five ready pods", func() bool {
		for i := range procs {
			if !ready(i) {
				return false
			}
		}
		return true
	})
	poll.For(t, 60*time.Second, "five voters", func() bool { return voters(t, leader) == 5 })
	pods.wantAddressService(t, 5)
}

// wantAddressService waits until every pod's address-service port (what
// the client Service balances over) answers the client addresses of the
// first n pods, in member-id order.
func (p *statefulSetPods) wantAddressService(t *testing.T, n int) {
	t.Helper()
	var want []string
	for i := 0; i < n; i++ {
		want = append(want, p.addr(t, i, 9876))
	}
	client := &http.Client{Timeout: 2 * time.Second}
	poll.For(t, 30*time.Second, fmt.Sprintf("the address service of %d pods to list %v", n, want), func() bool {
		for i := 0; i < n; i++ {
			resp, err := client.Get("http://" + p.addr(t, i, p.portOf("nsaddr")) + "/rocketmq/nsaddr")
			if err != nil {
				return false
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || string(body) != strings.Join(want, ";") {
				return false
			}
		}
		return true
	})
}

// addPeer sends what "raftnsctl peers add ID ADDR" sends.
func addPeer(t *testing.T, via *proc, id, addr string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"id": id, "address": addr})
	resp, err := http.Post("http://"+via.HTTPAddr+"/v1/peers", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		t.Fatalf("peers add %s: HTTP %d %s", id, resp.StatusCode, b.String())
	}
}

func voters(t *testing.T, via *proc) int {
	t.Helper()
	resp, err := via.Get(context.Background(), "/v1/peers")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var peers []struct {
		ID       string `json:"id"`
		Address  string `json:"address"`
		Suffrage string `json:"suffrage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&peers); err != nil {
		return -1
	}
	n := 0
	for _, p := range peers {
		if _, _, err := net.SplitHostPort(p.Address); err != nil || !strings.HasPrefix(p.Address, "127.0.0.1:") {
			t.Fatalf("member %s advertises %q, not its loopback stand-in", p.ID, p.Address)
		}
		if p.Suffrage == "Voter" {
			n++
		}
	}
	return n
}

func wantVoters(t *testing.T, via *proc, n int) {
	t.Helper()
	poll.For(t, 30*time.Second, fmt.Sprintf("%d voters", n), func() bool { return voters(t, via) == n })
}
