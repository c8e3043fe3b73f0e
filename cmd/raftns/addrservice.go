package main

import (
	"fmt"
	"net"

	"github.com/raftns/raftns/cluster"
)

// validateAddressService checks the settings of the address service,
// the advertised client address and removals.
func (c *config) validateAddressService() error {
	for name, addr := range map[string]string{"address service address": c.AddressServiceAddr, "advertised client address": c.AdvertiseClientAddr} {
		if addr == "" {
			continue
		}
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("%s %q: %w", name, addr, err)
		}
	}
	switch {
	case c.AddressServiceMaxConns < 1:
		return fmt.Errorf("address service max connections %d must be at least 1", c.AddressServiceMaxConns)
	case c.RemoveDrain < 0 || c.RemoveDrain > cluster.MaxDrain:
		return fmt.Errorf("remove drain %v must be from 0s to %v", c.RemoveDrain, cluster.MaxDrain)
	}
	return nil
}

// clientAddr is the RocketMQ client address this member advertises,
// checked: brokers and clients get it from the address service, so it
// must be one they can reach (cluster.CheckClientAddr against the other
// initial members and the members it joins).
func (c *config) clientAddr(id string, client net.Listener) (string, error) {
	addr := c.AdvertiseClientAddr
	if addr == "" {
		addr = advertised(c.Listen, client, c.AdvertiseHost)
	}
	var others []string
	for _, p := range c.Peers {
		if p.ID != id {
			others = append(others, p.Addr)
		}
	}
	if err := cluster.CheckClientAddr(addr, append(others, c.Join...)); err != nil {
		return "", err
	}
	return addr, nil
}
