package remoting

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"
)

func TestServer_BadFrameClosesOnlyThatConnection(t *testing.T) {
	tests := []struct {
		name    string
		garbage []byte
		want    error
	}{
		{"oversized length", rawFrame(MaxFrameLength+1, 0, nil), ErrFrameTooLarge},
		{"negative length", rawFrame(0x80000000, 0, nil), ErrBadLength},
		{"header longer than frame", rawFrame(8, 100, []byte("{}{}")), ErrBadLength},
		{"unknown serialize type", rawFrame(6, 9<<24|2, []byte("{}")), ErrUnknownSerializeType},
		{"garbage json", jsonFrame("GET / HTTP/1.1"), ErrBadHeader},
		{"bad binary header", binaryFrame(binaryHeader(-1, nil)), ErrBadHeader},
		{"http request", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), ErrFrameTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultServerConfig()
			hk := newHooks(&cfg)
			srv, addr := startServer(t, cfg, echo)
			good := dialRaw(t, addr)
			goodConn := recv(t, hk.connected, "good connection")
			bad := dialRaw(t, addr)
			recv(t, hk.connected, "bad connection")
			bad.sendBytes(tt.garbage)
			bad.expectClosed()
			closed := recv(t, hk.closed, "OnClose of the bad connection")
			if !errors.Is(closed.Err(), tt.want) {
				t.Fatalf("close reason %v, want %v", closed.Err(), tt.want)
			}
			good.send(request(codeFast, 1, "still here"))
			if got := good.read(); got.Remark != "still here" {
				t.Fatalf("good connection answered %+v", got)
			}
			if goodConn.Err() != nil {
				t.Fatalf("good connection closed: %v", goodConn.Err())
			}
			if st := srv.Stats(); st.BadFrames != 1 || st.OpenConns != 1 {
				t.Fatalf("stats bad frames %d open %d, want 1 and 1", st.BadFrames, st.OpenConns)
			}
		})
	}
}

func TestServer_IdleTimeoutCloses(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.IdleTimeout = 100 * time.Millisecond
	hk := newHooks(&cfg)
	srv, addr := startServer(t, cfg, echo)
	start := time.Now()
	rc := dialRaw(t, addr)
	rc.expectClosed()
	if elapsed := time.Since(start); elapsed < cfg.IdleTimeout {
		t.Fatalf("closed after %s, before the %s idle timeout", elapsed, cfg.IdleTimeout)
	}
	c := recv(t, hk.closed, "OnClose")
	if !errors.Is(c.Err(), ErrIdleTimeout) || srv.Stats().IdleClosed != 1 {
		t.Fatalf("close reason %v, idle closed %d; want ErrIdleTimeout and 1", c.Err(), srv.Stats().IdleClosed)
	}
}

func TestServer_IdleTimeoutResetByTraffic(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.IdleTimeout = 500 * time.Millisecond
	_, addr := startServer(t, cfg, echo)
	rc := dialRaw(t, addr)
	tick := time.NewTicker(cfg.IdleTimeout / 5)
	defer tick.Stop()
	for i := range 8 { // 8 requests a fifth of the timeout apart outlast it
		rc.send(request(codeFast, int32(i), "tick"))
		if got := rc.read(); got.Opaque != int32(i) {
			t.Fatalf("response opaque %d, want %d", got.Opaque, i)
		}
		<-tick.C
	}
}

func TestServer_IdleTimeoutSparesSlowHandler(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.IdleTimeout = 50 * time.Millisecond
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		<-time.After(6 * cfg.IdleTimeout) // a registration stuck in Raft
		return NewResponse(req, Success, "late")
	})
	_, addr := startServer(t, cfg, h)
	rc := dialRaw(t, addr)
	rc.send(request(codeSlow, 1, ""))
	if got := rc.read(); got.Remark != "late" {
		t.Fatalf("response = %+v, want the slow handler's answer", got)
	}
}

func TestServer_MaxConns(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.MaxConns = 1
	hk := newHooks(&cfg)
	srv, addr := startServer(t, cfg, echo)
	first := dialRaw(t, addr)
	first.send(request(codeFast, 1, "first"))
	first.read()
	second := dialRaw(t, addr)
	second.expectClosed()
	if st := srv.Stats(); st.RejectedByLimit != 1 || st.Accepted != 1 {
		t.Fatalf("rejected %d accepted %d, want 1 and 1", st.RejectedByLimit, st.Accepted)
	}
	first.send(request(codeFast, 2, "again"))
	if got := first.read(); got.Remark != "again" {
		t.Fatalf("first connection answered %+v", got)
	}
	_ = first.nc.Close()
	recv(t, hk.closed, "first connection closed")
	third := dialRaw(t, addr)
	third.send(request(codeFast, 3, "third"))
	if got := third.read(); got.Remark != "third" {
		t.Fatalf("third connection answered %+v", got)
	}
}

func TestServer_OnCloseFiresForEveryReason(t *testing.T) {
	tests := []struct {
		name    string
		trigger func(t *testing.T, srv *Server, c *Conn, rc *rawConn)
		want    error
	}{
		{"peer closes", func(_ *testing.T, _ *Server, _ *Conn, rc *rawConn) { _ = rc.nc.Close() }, io.EOF},
		{"idle", func(*testing.T, *Server, *Conn, *rawConn) {}, ErrIdleTimeout},
		{"bad frame", func(_ *testing.T, _ *Server, _ *Conn, rc *rawConn) { rc.sendBytes(jsonFrame("x")) }, ErrBadHeader},
		{"Conn.Close", func(_ *testing.T, _ *Server, c *Conn, _ *rawConn) { _ = c.Close() }, ErrConnClosed},
		{"Server.Close", func(_ *testing.T, srv *Server, _ *Conn, _ *rawConn) { _ = srv.Close() }, ErrServerClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultServerConfig()
			if tt.want == ErrIdleTimeout {
				cfg.IdleTimeout = 50 * time.Millisecond
			}
			hk := newHooks(&cfg)
			var handlerDone atomic.Bool
			entered := make(chan struct{})
			h := HandlerFunc(func(ctx context.Context, _ *Conn, req *Command) *Command {
				if req.Code == codeSlow {
					close(entered)
					<-ctx.Done() // released by the close
					handlerDone.Store(true)
				}
				return nil
			})
			srv, addr := startServer(t, cfg, h)
			rc := dialRaw(t, addr)
			c := recv(t, hk.connected, "OnConnect")
			if tt.want != ErrIdleTimeout { // an in-flight handler would keep an idle conn open
				rc.send(request(codeSlow, 1, ""))
				recv(t, entered, "handler start")
			}
			tt.trigger(t, srv, c, rc)
			closed := recv(t, hk.closed, "OnClose")
			if closed != c || !errors.Is(c.Err(), tt.want) {
				t.Fatalf("OnClose conn %d reason %v, want conn %d reason %v", closed.ID(), c.Err(), c.ID(), tt.want)
			}
			if tt.want != ErrIdleTimeout && !handlerDone.Load() {
				t.Fatal("OnClose ran before the connection's handler returned")
			}
			if len(srv.Conns()) != 0 {
				t.Fatalf("Conns() still lists %d connections", len(srv.Conns()))
			}
			select {
			case extra := <-hk.closed:
				t.Fatalf("OnClose fired twice (conn %d)", extra.ID())
			default:
			}
		})
	}
}
