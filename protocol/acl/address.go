package acl

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// addressRule matches remote IPs. It understands the reference's forms:
// "*" (any), a plain IP, a CIDR, "a.b.*" or "a.b.*.*" wildcards, and a
// last-octet range "a.b.c.1-100"; several forms may be joined by commas.
type addressRule []func(net.IP) bool

func parseAddressRule(s string) (addressRule, error) {
	var rule addressRule
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		m, err := parseAddressPart(part)
		if err != nil {
			return nil, err
		}
		rule = append(rule, m)
	}
	return rule, nil
}

func parseAddressPart(p string) (func(net.IP) bool, error) {
	switch {
	case p == "*" || p == "*.*.*.*":
		return func(net.IP) bool { return true }, nil
	case strings.Contains(p, "/"):
		_, n, err := net.ParseCIDR(p)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", p, err)
		}
		return n.Contains, nil
	case net.ParseIP(p) != nil:
		want := net.ParseIP(p)
		return want.Equal, nil
	}
	octets := strings.Split(p, ".")
	if len(octets) > 4 || len(octets) < 2 {
		return nil, fmt.Errorf("%q is not an address, CIDR, wildcard or range", p)
	}
	type span struct{ lo, hi int }
	spans := make([]span, 4)
	for i := range spans {
		spans[i] = span{0, 255}
	}
	for i, o := range octets {
		switch lo, hi, isRange := strings.Cut(o, "-"); {
		case o == "*":
		case isRange && i == len(octets)-1:
			l, err1 := strconv.Atoi(lo)
			h, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || l < 0 || h > 255 || l > h {
				return nil, fmt.Errorf("%q: bad range %q", p, o)
			}
			spans[i] = span{l, h}
		default:
			v, err := strconv.Atoi(o)
			if err != nil || v < 0 || v > 255 {
				return nil, fmt.Errorf("%q: bad octet %q", p, o)
			}
			spans[i] = span{v, v}
		}
	}
	if len(octets) < 4 && octets[len(octets)-1] != "*" {
		return nil, fmt.Errorf("%q: a short address must end with *", p)
	}
	return func(ip net.IP) bool {
		v4 := ip.To4()
		if v4 == nil {
			return false
		}
		for i, s := range spans {
			if int(v4[i]) < s.lo || int(v4[i]) > s.hi {
				return false
			}
		}
		return true
	}, nil
}

// ParseAddrList parses the broker allow-list: IPs or CIDRs.
func ParseAddrList(items []string) (addressRule, error) {
	var rule addressRule
	for _, it := range items {
		r, err := parseAddressRule(it)
		if err != nil {
			return nil, err
		}
		rule = append(rule, r...)
	}
	return rule, nil
}

func (r addressRule) match(ip net.IP) bool {
	if ip == nil {
		return false
	}
	for _, m := range r {
		if m(ip) {
			return true
		}
	}
	return false
}

// remoteIP extracts the IP of a host:port.
func remoteIP(addr string) net.IP {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return net.ParseIP(host)
}
