package cluster

import (
	"context"
	"fmt"
	"net"
	"strings"
)

// CheckClientAddr refuses a member's advertised RocketMQ client address
// that brokers and clients could not reach, since the address service
// hands it to them: one without a host or with an unspecified one
// (0.0.0.0, ::), or a loopback one (127.0.0.0/8, ::1, localhost) while
// one of others, the addresses of the other members, is not on loopback,
// so the cluster spans machines. The error says what to set.
func CheckClientAddr(addr string, others []string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%w: advertised client address %q: %v", ErrBadConfig, addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return fmt.Errorf("%w: advertised client address %q names no host that brokers and clients could reach; "+
			"set --advertise-client-addr (or --advertise-host) to this member's address", ErrBadConfig, addr)
	}
	if !isLoopback(host) {
		return nil
	}
	for _, o := range others {
		if h, _, err := net.SplitHostPort(o); err == nil && !isLoopback(h) {
			return fmt.Errorf("%w: advertised client address %q is on loopback, but member address %q is not: "+
				"brokers and clients on other machines could not reach this member; set --advertise-client-addr "+
				"(or --advertise-host) to an address they can reach", ErrBadConfig, addr, o)
		}
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// admitClientAddr refuses a member asking to join whose advertised client
// address brokers and clients could not reach (CheckClientAddr against the
// other members' client addresses), or that another member already
// advertises. A member that does not answer yet, or
// advertises no host:port, is admitted: its own start-up checks it.
func (m *membership) admitClientAddr(id, clusterAddr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
	defer cancel()
	st, err := m.probe(ctx, clusterAddr)
	if err != nil {
		return nil
	}
	if _, _, err := net.SplitHostPort(st.ClientAddr); err != nil {
		return nil
	}
	var others []string
	self := addrHolder{ID: id, ClientAddr: st.ClientAddr}
	for _, mem := range m.fsm.Members() {
		if mem.ID == id {
			continue
		}
		if err := addressClash(self, addrHolder{ID: mem.ID, ClientAddr: mem.ClientAddr, ClusterAddr: mem.ClusterAddr}); err != nil {
			return fmt.Errorf("member %s not admitted: %w", id, err)
		}
		others = append(others, mem.ClientAddr)
	}
	if err := CheckClientAddr(st.ClientAddr, others); err != nil {
		return fmt.Errorf("member %s not admitted: %w", id, err)
	}
	return nil
}
