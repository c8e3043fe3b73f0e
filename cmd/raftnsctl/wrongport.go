package main

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// remotingProbeTimeout bounds the RocketMQ request that tells whether an
// address that gave no HTTP answer is a RocketMQ client port.
const remotingProbeTimeout = 2 * time.Second

// isDialError reports whether err happened before a connection was made.
func isDialError(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// speaksRemoting reports whether addr answers a RocketMQ remoting request
// (GET_NAMESRV_CONFIG), with any answer: it is a name server's client port.
func speaksRemoting(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, remotingProbeTimeout)
	defer cancel()
	c := nsclient.New(remoting.ClientConfig{DialTimeout: remotingProbeTimeout, RequestTimeout: remotingProbeTimeout,
		WriteTimeout: remotingProbeTimeout})
	defer c.Close()
	_, err := c.GetNamesrvConfig(ctx, addr)
	var re *nsclient.ResponseError
	return err == nil || errors.As(err, &re)
}
