package remoting

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// Handler goroutines outlive their request to take the next one, but a
// burst leaves at most idleWorkersPerConn of them behind, and every
// request of the burst and after it is answered.
func TestServer_IdleHandlerGoroutinesAreBounded(t *testing.T) {
	const burst = 16
	release := make(chan struct{})
	entered := make(chan struct{}, burst)
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		if req.ExtFields["n"] == "block" {
			entered <- struct{}{}
			<-release
		}
		return NewResponse(req, Success, req.ExtFields["n"])
	})
	srv, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	for i := range burst {
		rc.send(request(codeSlow, int32(i), "block"))
	}
	for range burst {
		recv(t, entered, "a blocked handler")
	}
	busy := runtime.NumGoroutine()
	close(release)
	for range burst {
		rc.read()
	}
	poll.For(t, 5*time.Second, "idle handler goroutines to exit", func() bool {
		return runtime.NumGoroutine() <= busy-burst+idleWorkersPerConn
	})
	for i := range 50 {
		rc.send(request(codeSlow, int32(burst+i), "after"))
		if resp := rc.read(); resp.Opaque != int32(burst+i) || resp.Remark != "after" {
			t.Fatalf("request %d answered %+v", burst+i, resp)
		}
	}
	if got := runtime.NumGoroutine(); got > busy-burst+idleWorkersPerConn {
		t.Fatalf("goroutines after sequential requests = %d, want at most %d", got, busy-burst+idleWorkersPerConn)
	}
	if conns := srv.Conns(); len(conns) != 1 {
		t.Fatalf("connections %d, want 1", len(conns))
	}
	// The answer leaves before its handler returns and counts the request
	// done, so the count reaches 0 just after the last read, not with it.
	poll.For(t, 5*time.Second, "no request in flight", func() bool { return srv.Conns()[0].InFlight() == 0 })
}
