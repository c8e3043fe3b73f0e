package cluster

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/transport"
	"github.com/raftns/raftns/transport/lane"
)

// MinClusterKeyLen is the shortest cluster key accepted, in bytes.
const MinClusterKeyLen = transport.MinClusterKeyLen

// errNotSent marks an internal RPC that failed before its request left
// this member.
var errNotSent = transport.ErrNotSent

// LoadTLS reads a member's certificate and key and the CA certificates
// (all PEM) and returns the configuration for Config.TLS
// (transport.LoadTLS). Any unreadable or invalid file is an ErrBadConfig
// naming it.
func LoadTLS(certFile, keyFile, caFile string) (*tls.Config, error) {
	c, err := transport.LoadTLS(certFile, keyFile, caFile)
	return c, badConfig(err)
}

// LoadClusterKey reads the shared cluster key (transport.LoadClusterKey).
// Problems are ErrBadConfig naming the file.
func LoadClusterKey(path string) ([]byte, error) {
	key, err := transport.LoadClusterKey(path)
	return key, badConfig(err)
}

// validateTLS checks that c can serve as both ends of mutual TLS.
func validateTLS(c *tls.Config) error { return badConfig(transport.ValidateTLS(c)) }

// badConfig marks a configuration error as ErrBadConfig.
func badConfig(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrBadConfig, err)
}

// rpcPool is the member's pool of internal RPC clients; its calls fail
// with ErrShutdown once it is closed.
type rpcPool struct{ *transport.RPCPool }

func newRPCPool(d transport.Dialer, linkDown func(string) bool) *rpcPool {
	return &rpcPool{transport.NewRPCPool(d, linkDown, ErrShutdown)}
}

// call invokes method on the member at addr within ctx (RPCPool.Call).
func (p *rpcPool) call(ctx context.Context, addr, method string, args, reply any, fresh bool) error {
	return p.Call(ctx, addr, method, args, reply, fresh)
}

func (p *rpcPool) close() { p.Close() }

// newLanes returns the forward lanes of a member that dials other members
// through d.
func newLanes(d transport.Dialer, linkDown func(addr string) bool, logger hclog.Logger) *lane.Lanes {
	return lane.New(lane.Options{
		Dial: func(addr string) (net.Conn, error) {
			return d.Dial(addr, transport.ProtoForward, transport.DialTimeout)
		},
		HelloTimeout: transport.DialTimeout, StaleAfter: leaderSilenceLimit, LinkDown: linkDown, Logger: logger,
	})
}
