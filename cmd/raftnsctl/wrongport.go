package main

import (
	"context"
	"errors"
	"net"
	"net/http"
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

// speaksHTTP reports whether addr answers an HTTP request, with any status:
// it is an HTTP port (a member's admin port or address service), not a
// RocketMQ client port. An HTTP server may wait for the rest of a request
// rather than answer a remoting frame, so the frame alone cannot tell.
func speaksHTTP(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, remotingProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/", nil)
	if err != nil {
		return false
	}
	resp, err := (&http.Client{Timeout: remotingProbeTimeout}).Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}
