package remoting

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// startServer serves h on 127.0.0.1:0 and closes the server at cleanup,
// checking that Serve then returns ErrServerClosed.
func startServer(t testing.TB, cfg ServerConfig, h Handler) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(cfg, h, testLogger(t).Named("server"))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := <-served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return srv, ln.Addr().String()
}

// testClient returns a client closed at cleanup.
func testClient(t *testing.T, cfg ClientConfig) *Client {
	t.Helper()
	cfg.Logger = testLogger(t).Named("client")
	cl := NewClient(cfg)
	t.Cleanup(func() { _ = cl.Close() })
	return cl
}

// echo answers SUCCESS with the request's "n" ext field as remark.
var echo = HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
	return NewResponse(req, Success, req.ExtFields["n"])
})

// rawConn is a hand-driven client connection for wire-level assertions.
type rawConn struct {
	t  *testing.T
	nc net.Conn
	br *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nc.Close() })
	return &rawConn{t: t, nc: nc, br: bufio.NewReader(nc)}
}

func (r *rawConn) send(c *Command) {
	r.t.Helper()
	if err := WriteCommand(r.nc, c); err != nil {
		r.t.Fatalf("send: %v", err)
	}
}

func (r *rawConn) sendBytes(b []byte) {
	r.t.Helper()
	if _, err := r.nc.Write(b); err != nil {
		r.t.Fatalf("send: %v", err)
	}
}

// read returns the next frame, failing the test after 5 s.
func (r *rawConn) read() *Command {
	r.t.Helper()
	_ = r.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	c, err := ReadCommand(r.br)
	if err != nil {
		r.t.Fatalf("read: %v", err)
	}
	return c
}

// expectClosed waits up to 5 s for the server to close the connection.
func (r *rawConn) expectClosed() {
	r.t.Helper()
	_ = r.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	c, err := ReadCommand(r.br)
	var ne net.Error
	if err == nil || errors.As(err, &ne) && ne.Timeout() {
		r.t.Fatalf("connection still open: read %+v, %v", c, err)
	}
	if err != io.EOF && !errors.Is(err, net.ErrClosed) && !isNetOpError(err) {
		r.t.Fatalf("read error = %v, want EOF or reset", err)
	}
}

func isNetOpError(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe)
}

// request builds a request with ext field n.
func request(code, opaque int32, n string) *Command {
	return &Command{Code: code, Language: LanguageJava, Opaque: opaque, ExtFields: map[string]string{"n": n}}
}

// hooks records connection lifecycle events.
type hooks struct {
	connected chan *Conn
	closed    chan *Conn
}

func newHooks(cfg *ServerConfig) *hooks {
	h := &hooks{connected: make(chan *Conn, 16), closed: make(chan *Conn, 16)}
	cfg.OnConnect = func(c *Conn) { h.connected <- c }
	cfg.OnClose = func(c *Conn) { h.closed <- c }
	return h
}

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

func newLoopbackListener(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	return ln
}
