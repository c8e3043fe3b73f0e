package chaos

import (
	"io"
	"net"
	"sync"
)

// network is the set of proxies in front of every member's cluster port and
// the partition they enforce. Each member advertises its proxy's address, so
// every Raft RPC, forwarded write, heartbeat batch and status probe between
// members passes through a proxy, which knows the destination (the member
// behind it) and learns the source from the kernel (socketOwner). A cut pair
// has its open connections closed and new ones refused, in both directions.
type network struct {
	mu      sync.Mutex
	pids    map[int]string     // running member pids → member id
	cut     map[[2]string]bool // unordered pairs that cannot talk
	links   map[*link]struct{} // open proxied connections
	proxies map[string]*proxy  // by destination member id
	unknown int                // accepted connections whose source was not found
}

type link struct {
	src, dst     string
	client, peer net.Conn
}

func newNetwork() *network {
	return &network{pids: map[int]string{}, cut: map[[2]string]bool{}, links: map[*link]struct{}{}, proxies: map[string]*proxy{}}
}

func pair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// setPid records the process of member id (0 forgets it).
func (nw *network) setPid(id string, pid int) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for p, name := range nw.pids {
		if name == id {
			delete(nw.pids, p)
		}
	}
	if pid != 0 {
		nw.pids[pid] = id
	}
}

// partition cuts every pair with one member in side and one outside it,
// among members; it replaces any earlier partition.
func (nw *network) partition(side, members []string) {
	in := map[string]bool{}
	for _, m := range side {
		in[m] = true
	}
	nw.mu.Lock()
	nw.cut = map[[2]string]bool{}
	for _, a := range members {
		for _, b := range members {
			if in[a] && !in[b] {
				nw.cut[pair(a, b)] = true
			}
		}
	}
	var sever []*link
	for l := range nw.links {
		if nw.cut[pair(l.src, l.dst)] {
			sever = append(sever, l)
		}
	}
	nw.mu.Unlock()
	for _, l := range sever {
		l.client.Close()
		l.peer.Close()
	}
}

// heal removes every cut.
func (nw *network) heal() {
	nw.mu.Lock()
	nw.cut = map[[2]string]bool{}
	nw.mu.Unlock()
}

// proxy forwards connections to one member's cluster port.
type proxy struct {
	nw     *network
	dst    string // member id behind the proxy
	target string // the member's real cluster address
	ln     net.Listener
	wg     sync.WaitGroup
}

// addProxy listens on a fresh loopback port for member dst at target.
func (nw *network) addProxy(dst, target string) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{nw: nw, dst: dst, target: target, ln: ln}
	nw.mu.Lock()
	nw.proxies[dst] = p
	nw.mu.Unlock()
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.handle(c)
		}()
	}
}

func (p *proxy) handle(c net.Conn) {
	p.nw.mu.Lock()
	pids := make(map[int]string, len(p.nw.pids))
	for k, v := range p.nw.pids {
		pids[k] = v
	}
	p.nw.mu.Unlock()
	src, ok := socketOwner(c.RemoteAddr().(*net.TCPAddr), pids)
	p.nw.mu.Lock()
	if !ok {
		p.nw.unknown++
	}
	blocked := p.nw.cut[pair(src, p.dst)]
	p.nw.mu.Unlock()
	if blocked {
		c.Close()
		return
	}
	peer, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	l := &link{src: src, dst: p.dst, client: c, peer: peer}
	p.nw.mu.Lock()
	if p.nw.cut[pair(src, p.dst)] { // cut while dialling
		p.nw.mu.Unlock()
		c.Close()
		peer.Close()
		return
	}
	p.nw.links[l] = struct{}{}
	p.nw.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		io.Copy(dst, src)
		dst.Close()
		src.Close()
		done <- struct{}{}
	}
	go pipe(peer, c)
	go pipe(c, peer)
	<-done
	<-done
	p.nw.mu.Lock()
	delete(p.nw.links, l)
	p.nw.mu.Unlock()
}

// close stops every proxy and closes every proxied connection.
func (nw *network) close() {
	nw.mu.Lock()
	proxies := make([]*proxy, 0, len(nw.proxies))
	for _, p := range nw.proxies {
		proxies = append(proxies, p)
	}
	links := make([]*link, 0, len(nw.links))
	for l := range nw.links {
		links = append(links, l)
	}
	nw.mu.Unlock()
	for _, p := range proxies {
		p.ln.Close()
	}
	for _, l := range links {
		l.client.Close()
		l.peer.Close()
	}
	for _, p := range proxies {
		p.wg.Wait()
	}
}
