package remoting

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

const (
	codeSlow int32 = 1000 // test handler blocks until released
	codeFast int32 = 1001
)

func TestServer_OutOfOrderResponsesMatchedByOpaque(t *testing.T) {
	release := make(chan struct{})
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		if req.Code == codeSlow {
			<-release
		}
		return NewResponse(req, Success, req.ExtFields["n"])
	})
	_, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	rc.send(request(codeSlow, 10, "slow"))
	rc.send(request(codeFast, 11, "fast"))
	if got := rc.read(); got.Opaque != 11 || got.Remark != "fast" {
		t.Fatalf("first response = opaque %d remark %q, want 11 fast", got.Opaque, got.Remark)
	}
	close(release)
	if got := rc.read(); got.Opaque != 10 || got.Remark != "slow" {
		t.Fatalf("second response = opaque %d remark %q, want 10 slow", got.Opaque, got.Remark)
	}
}

func TestServer_ConcurrentCallsOnOneConnection(t *testing.T) {
	var conns sync.Map
	h := HandlerFunc(func(_ context.Context, c *Conn, req *Command) *Command {
		conns.Store(c.ID(), true)
		return NewResponse(req, Success, req.ExtFields["n"])
	})
	_, addr := startServer(t, DefaultServerConfig(), h)
	cl := testClient(t, DefaultClientConfig())
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Go(func() {
			n := strconv.Itoa(i)
			resp, err := cl.Invoke(context.Background(), addr, request(codeFast, 0, n))
			if err == nil && resp.Remark != n {
				err = fmt.Errorf("call %s got remark %q", n, resp.Remark)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	count := 0
	conns.Range(func(any, any) bool { count++; return true })
	if count != 1 {
		t.Fatalf("calls used %d connections, want 1", count)
	}
}

func TestServer_OnewayGetsNoResponse(t *testing.T) {
	handled := make(chan *Command, 1)
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		if req.IsOneway() {
			handled <- req
		}
		return NewResponse(req, Success, req.ExtFields["n"]) // must be dropped for oneway
	})
	srv, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	oneway := request(RegisterBroker, 20, "oneway")
	oneway.Flag = FlagOneway
	rc.send(oneway)
	if got := recv(t, handled, "oneway request handled"); got.Opaque != 20 {
		t.Fatalf("handled opaque %d, want 20", got.Opaque)
	}
	rc.send(request(codeFast, 21, "normal"))
	if got := rc.read(); got.Opaque != 21 {
		t.Fatalf("first frame after oneway has opaque %d, want 21 (oneway answered?)", got.Opaque)
	}
	if st := srv.Stats(); st.Oneway != 1 || st.Requests != 2 {
		t.Fatalf("stats oneway %d requests %d, want 1 and 2", st.Oneway, st.Requests)
	}
}

func TestServer_ResponseFrameIgnored(t *testing.T) {
	var calls atomic.Int32
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		calls.Add(1)
		return NewResponse(req, Success, "")
	})
	srv, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	stray := request(codeFast, 30, "")
	stray.Flag = FlagResponse
	rc.send(stray)
	rc.send(request(codeFast, 31, ""))
	if got := rc.read(); got.Opaque != 31 {
		t.Fatalf("response opaque %d, want 31", got.Opaque)
	}
	if calls.Load() != 1 || srv.Stats().IgnoredResponses != 1 {
		t.Fatalf("handler calls %d, ignored %d; want 1 and 1", calls.Load(), srv.Stats().IgnoredResponses)
	}
}

func TestServer_ResponseMirrorsRequest(t *testing.T) {
	// A shared, read-only response with wrong opaque, flag and type: the
	// server must impose the request's opaque and serialization and flag 1.
	shared := &Command{Code: Success, Language: LanguageJava, Version: ServerVersion, Opaque: 999,
		Flag: FlagOneway, ExtFields: map[string]string{"k": "v"}, Body: []byte("body"), SerializeType: SerializeRocketMQ}
	h := HandlerFunc(func(context.Context, *Conn, *Command) *Command { return shared })
	_, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	for i, st := range []SerializeType{SerializeJSON, SerializeRocketMQ, SerializeJSON} {
		req := request(codeFast, int32(40+i), "")
		req.SerializeType = st
		rc.send(req)
		got := rc.read()
		if got.SerializeType != st || got.Opaque != req.Opaque || got.Flag != FlagResponse ||
			got.ExtFields["k"] != "v" || string(got.Body) != "body" {
			t.Fatalf("response to %s request = %+v", st, got)
		}
	}
	if shared.Opaque != 999 || shared.SerializeType != SerializeRocketMQ {
		t.Fatalf("server modified the handler's shared response: %+v", shared)
	}
}

func TestServer_UnencodableResponseBecomesSystemError(t *testing.T) {
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		return NewResponse(req, 40000, "code too big for int16")
	})
	_, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	rc.send(request(codeFast, 50, ""))
	got := rc.read()
	if got.Code != SystemError || got.Opaque != 50 || !strings.Contains(got.Remark, "int16") {
		t.Fatalf("response = %+v, want SYSTEM_ERROR mentioning int16", got)
	}
}

func TestServer_HandlerPanicAnswersSystemError(t *testing.T) {
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		if req.Code == codeSlow {
			panic("boom " + req.ExtFields["n"])
		}
		return NewResponse(req, Success, "ok")
	})
	srv, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	rc.send(request(codeSlow, 1, "request"))
	got := rc.read()
	if got.Code != SystemError || got.Opaque != 1 || !strings.Contains(got.Remark, "boom request") {
		t.Fatalf("response = %+v, want SYSTEM_ERROR with the panic value", got)
	}
	oneway := request(codeSlow, 2, "oneway")
	oneway.Flag = FlagOneway
	rc.send(oneway)
	poll.For(t, 5*time.Second, "second panic", func() bool { return srv.Stats().HandlerPanics == 2 })
	rc.send(request(codeFast, 3, ""))
	if got := rc.read(); got.Opaque != 3 || got.Code != Success {
		t.Fatalf("after oneway panic got %+v, want the answer to opaque 3", got)
	}
}

func TestServer_MaxInflightPerConn(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.MaxInflightPerConn = 2
	var running, peak atomic.Int32
	release := make(chan struct{})
	entered := make(chan struct{}, 3)
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		entered <- struct{}{}
		<-release
		running.Add(-1)
		return NewResponse(req, Success, "")
	})
	srv, addr := startServer(t, cfg, h)
	rc := dialRaw(t, addr)
	for i := range 3 {
		rc.send(request(codeSlow, int32(i), ""))
	}
	recv(t, entered, "handler 1")
	recv(t, entered, "handler 2")
	poll.For(t, 5*time.Second, "third request read", func() bool { return srv.Stats().Requests == 3 })
	if conns := srv.Conns(); len(conns) != 1 || conns[0].InFlight() != 2 {
		t.Fatalf("in flight = %d, want 2", conns[0].InFlight())
	}
	close(release)
	for range 3 {
		rc.read()
	}
	if p := peak.Load(); p != 2 {
		t.Fatalf("peak concurrent handlers %d, want 2", p)
	}
}

func TestServer_ConnAccessors(t *testing.T) {
	cfg := DefaultServerConfig()
	hk := newHooks(&cfg)
	srv, addr := startServer(t, cfg, echo)
	a := dialRaw(t, addr)
	ca := recv(t, hk.connected, "conn a")
	dialRaw(t, addr)
	cb := recv(t, hk.connected, "conn b")
	if ca.ID() == cb.ID() {
		t.Fatalf("two connections share ID %d", ca.ID())
	}
	if ca.RemoteAddr() != a.nc.LocalAddr().String() {
		t.Fatalf("RemoteAddr %s, want %s", ca.RemoteAddr(), a.nc.LocalAddr())
	}
	if ca.LocalAddr() != addr {
		t.Fatalf("LocalAddr %s, want %s", ca.LocalAddr(), addr)
	}
	ca.SetValue("broker-a")
	if ca.Value() != "broker-a" || cb.Value() != nil {
		t.Fatalf("values %v and %v, want broker-a and nil", ca.Value(), cb.Value())
	}
	before := ca.LastActivity()
	a.send(request(codeFast, 1, ""))
	a.read()
	if !ca.LastActivity().After(before) {
		t.Fatalf("LastActivity %v did not move past %v", ca.LastActivity(), before)
	}
	conns := srv.Conns()
	if len(conns) != 2 || conns[0].ID() >= conns[1].ID() {
		t.Fatalf("Conns() = %d connections, want 2 ordered by ID", len(conns))
	}
	if ca.Err() != nil || ca.Context().Err() != nil {
		t.Fatalf("open connection reports %v / %v", ca.Err(), ca.Context().Err())
	}
}

func TestServer_ServeAfterCloseFails(t *testing.T) {
	srv, _ := startServer(t, DefaultServerConfig(), echo)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	ln := newLoopbackListener(t)
	if err := srv.Serve(ln); !errors.Is(err, ErrServerClosed) {
		t.Fatalf("Serve after Close = %v, want ErrServerClosed", err)
	}
}

func TestServerConfig_Validate(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*ServerConfig)
		text   string
	}{
		{"default is valid", func(*ServerConfig) {}, ""},
		{"negative MaxConns", func(c *ServerConfig) { c.MaxConns = -1 }, "MaxConns -1"},
		{"negative IdleTimeout", func(c *ServerConfig) { c.IdleTimeout = -time.Second }, "IdleTimeout -1s"},
		{"zero MaxInflightPerConn", func(c *ServerConfig) { c.MaxInflightPerConn = 0 }, "MaxInflightPerConn 0"},
		{"negative WriteTimeout", func(c *ServerConfig) { c.WriteTimeout = -1 }, "WriteTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultServerConfig()
			tt.modify(&cfg)
			err := cfg.Validate()
			if tt.text == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("Validate = %v, want ErrInvalidConfig mentioning %q", err, tt.text)
			}
		})
	}
}
