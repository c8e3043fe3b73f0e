package httpapi

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads --http-trusted-proxies: IP addresses or CIDR
// prefixes.
func ParseTrustedProxies(items []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		if p, err := netip.ParsePrefix(it); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(it)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: want an IP address or a CIDR prefix", it)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// trustedProxy reports an address the operator named as a proxy.
func (s *Server) trustedProxy(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range s.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address a request came from: the connection's peer,
// or, when the peer is a trusted proxy, the right-most X-Forwarded-For
// address that is not itself one (addresses further left were written by
// whoever the first proxy did not check, so they prove nothing).
func (s *Server) clientAddr(r *http.Request) string {
	from := r.RemoteAddr
	if !s.trustedProxy(remoteIP(from)) {
		return from
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return from
		}
		from = a.Unmap().String()
		if !s.trustedProxy(from) {
			return from
		}
	}
	return from
}
