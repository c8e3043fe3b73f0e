package remoting

import (
	"bufio"
	"context"
	"errors"
	"net"
	"reflect"
	"testing"
	"time"
)

func TestClient_InvokeDoesNotModifyRequest(t *testing.T) {
	seen := make(chan *Command, 1)
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		seen <- req
		return NewResponse(req, Success, "")
	})
	_, addr := startServer(t, DefaultServerConfig(), h)
	cl := testClient(t, DefaultClientConfig())
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		req := &Command{Code: codeFast, Language: "GO", Opaque: 77, Flag: FlagResponse | FlagOneway,
			ExtFields: map[string]string{"topic": "T"}, SerializeType: st}
		orig := *req
		resp, err := cl.Invoke(context.Background(), addr, req)
		if err != nil {
			t.Fatal(err)
		}
		got := recv(t, seen, "request at server")
		if got.SerializeType != st || got.Flag != 0 || got.ExtFields["topic"] != "T" {
			t.Fatalf("server saw %+v", got)
		}
		if resp.SerializeType != st || resp.Opaque != got.Opaque {
			t.Fatalf("response %+v to request with opaque %d", resp, got.Opaque)
		}
		if !reflect.DeepEqual(*req, orig) {
			t.Fatalf("Invoke modified the request: %+v, was %+v", *req, orig)
		}
	}
}

func TestClient_Timeout(t *testing.T) {
	release := make(chan struct{})
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		if req.Code == codeSlow {
			<-release
		}
		return NewResponse(req, Success, req.ExtFields["n"])
	})
	_, addr := startServer(t, DefaultServerConfig(), h)
	defer close(release)
	tests := []struct {
		name string
		cfg  ClientConfig
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"context deadline", DefaultClientConfig(), func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}},
		{"default request timeout", ClientConfig{RequestTimeout: 50 * time.Millisecond}, func() (context.Context, context.CancelFunc) {
			return context.Background(), func() {}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := testClient(t, tt.cfg)
			// The deadline is counted from before the context exists, so the
			// lower bound below holds for both ways of setting it.
			start := time.Now()
			ctx, cancel := tt.ctx()
			defer cancel()
			_, err := cl.Invoke(ctx, addr, request(codeSlow, 0, ""))
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Invoke error = %v, want DeadlineExceeded", err)
			}
			if elapsed := time.Since(start); elapsed < 50*time.Millisecond {
				t.Fatalf("timed out after %s, before 50ms", elapsed)
			}
			cc := pooled(cl, addr)
			cc.mu.Lock()
			pending := len(cc.pending)
			cc.mu.Unlock()
			if pending != 0 {
				t.Fatalf("%d calls left pending after timeout", pending)
			}
			resp, err := cl.Invoke(context.Background(), addr, request(codeFast, 0, "after"))
			if err != nil || resp.Remark != "after" {
				t.Fatalf("call after timeout = %+v, %v", resp, err)
			}
			if pooled(cl, addr) != cc {
				t.Fatal("a timeout replaced the connection")
			}
		})
	}
}

func TestClient_BrokenConnectionFailsPendingAndReconnects(t *testing.T) {
	cfg := DefaultServerConfig()
	hk := newHooks(&cfg)
	entered := make(chan struct{}, 1)
	h := HandlerFunc(func(ctx context.Context, _ *Conn, req *Command) *Command {
		if req.Code == codeSlow {
			entered <- struct{}{}
			<-ctx.Done()
			return nil
		}
		return NewResponse(req, Success, "ok")
	})
	_, addr := startServer(t, cfg, h)
	cl := testClient(t, DefaultClientConfig())
	failed := make(chan error, 1)
	go func() {
		_, err := cl.Invoke(context.Background(), addr, request(codeSlow, 0, ""))
		failed <- err
	}()
	first := recv(t, hk.connected, "first connection")
	recv(t, entered, "slow handler")
	broken := pooled(cl, addr)
	_ = first.Close()
	if err := recv(t, failed, "pending call"); !errors.Is(err, ErrConnClosed) {
		t.Fatalf("pending call error = %v, want ErrConnClosed", err)
	}
	// The broken connection left the pool before its calls failed, so the
	// next call cannot pick it up.
	if broken == nil || pooled(cl, addr) == broken {
		t.Fatal("the broken connection is still pooled after its call failed")
	}
	resp, err := cl.Invoke(context.Background(), addr, request(codeFast, 0, ""))
	if err != nil || resp.Remark != "ok" {
		t.Fatalf("call after break = %+v, %v", resp, err)
	}
	if second := recv(t, hk.connected, "second connection"); second.ID() == first.ID() {
		t.Fatal("no new connection after the break")
	}
}

func TestClient_CloseFailsPending(t *testing.T) {
	entered := make(chan struct{}, 1)
	h := HandlerFunc(func(ctx context.Context, _ *Conn, req *Command) *Command {
		entered <- struct{}{}
		<-ctx.Done()
		return nil
	})
	_, addr := startServer(t, DefaultServerConfig(), h)
	cl := NewClient(ClientConfig{Logger: testLogger(t)})
	failed := make(chan error, 1)
	go func() {
		_, err := cl.Invoke(context.Background(), addr, request(codeSlow, 0, ""))
		failed <- err
	}()
	recv(t, entered, "handler")
	if err := cl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := recv(t, failed, "pending call"); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("pending call error = %v, want ErrClientClosed", err)
	}
	if _, err := cl.Invoke(context.Background(), addr, request(codeFast, 0, "")); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("call after Close = %v, want ErrClientClosed", err)
	}
}

func TestClient_DialFailure(t *testing.T) {
	ln := newLoopbackListener(t)
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	cl := testClient(t, DefaultClientConfig())
	for range 2 { // a failed dial is not cached: the second call dials again
		_, err := cl.Invoke(context.Background(), addr, request(codeFast, 0, ""))
		var oe *net.OpError
		if !errors.As(err, &oe) || oe.Op != "dial" {
			t.Fatalf("Invoke error = %v, want a dial error", err)
		}
	}
}

func TestClient_InvokeOnewaySetsFlag(t *testing.T) {
	seen := make(chan *Command, 1)
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		seen <- req
		return NewResponse(req, Success, "")
	})
	srv, addr := startServer(t, DefaultServerConfig(), h)
	cl := testClient(t, DefaultClientConfig())
	if err := cl.InvokeOneway(context.Background(), addr, request(RegisterBroker, 0, "")); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, seen, "oneway request"); !got.IsOneway() || got.IsResponse() || got.Opaque == 0 {
		t.Fatalf("server saw %+v, want a oneway request with an opaque", got)
	}
	if srv.Stats().Oneway != 1 {
		t.Fatalf("server counted %d oneway requests, want 1", srv.Stats().Oneway)
	}
}

// TestClient_IgnoresStrayFrames runs the client against a hand-written
// server that first sends an unmatched response and a request.
func TestClient_IgnoresStrayFrames(t *testing.T) {
	ln := newLoopbackListener(t)
	served := make(chan error, 1)
	go func() {
		served <- func() error {
			nc, err := ln.Accept()
			if err != nil {
				return err
			}
			defer nc.Close()
			req, err := ReadCommand(bufio.NewReader(nc))
			if err != nil {
				return err
			}
			stray := NewResponse(req, Success, "stray")
			stray.Opaque = req.Opaque + 1000
			if err := WriteCommand(nc, stray); err != nil {
				return err
			}
			if err := WriteCommand(nc, &Command{Code: 905, Opaque: 1}); err != nil {
				return err
			}
			return WriteCommand(nc, NewResponse(req, Success, "real"))
		}()
	}()
	cl := testClient(t, DefaultClientConfig())
	resp, err := cl.Invoke(context.Background(), ln.Addr().String(), request(codeFast, 0, ""))
	if err != nil || resp.Remark != "real" {
		t.Fatalf("Invoke = %+v, %v; want the real response", resp, err)
	}
	if err := recv(t, served, "fake server"); err != nil {
		t.Fatal(err)
	}
}

// pooled returns the client's pooled connection to addr.
func pooled(cl *Client, addr string) *clientConn {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.conns[addr]
}
