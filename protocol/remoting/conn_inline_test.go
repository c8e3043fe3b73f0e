package remoting

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/internal/poll"
)

const (
	codeInline      int32 = 1002 // answered by ServeInline
	codeInlinePanic int32 = 1003 // ServeInline panics
)

// inlineHandler answers codeInline inline and everything else through
// ServeRemoting, where codeSlow waits for release. Every answer carries a
// body derived from the request's "n", so that a response given to the
// wrong request, or two frames written into each other, shows.
type inlineHandler struct {
	release chan struct{}
	size    int
}

func (h *inlineHandler) answer(req *Command, via string) *Command {
	resp := NewResponse(req, Success, via+":"+req.ExtFields["n"])
	resp.Body = bodyFor(req.ExtFields["n"], h.size)
	return resp
}

func (h *inlineHandler) ServeInline(_ *Conn, req *Command) (*Command, bool) {
	switch req.Code {
	case codeInline:
		return h.answer(req, "inline"), true
	case codeInlinePanic:
		panic("inline boom")
	}
	return nil, false
}

func (h *inlineHandler) ServeRemoting(_ context.Context, _ *Conn, req *Command) *Command {
	if req.Code == codeSlow {
		<-h.release
	}
	return h.answer(req, "handler")
}

// bodyFor repeats n to size bytes.
func bodyFor(n string, size int) []byte {
	return bytes.Repeat([]byte(n+";"), size/(len(n)+1)+1)[:size]
}

// TestServer_InlineAndHandlerAnswersShareOneConnection sends, on one
// connection and concurrently, requests answered inline, requests answered
// by handler goroutines and requests held by a handler until the end: every
// caller gets its own answer, by the right path, and the frames (16 KiB
// each, larger than the write buffer) never mix.
func TestServer_InlineAndHandlerAnswersShareOneConnection(t *testing.T) {
	h := &inlineHandler{release: make(chan struct{}), size: 16 << 10}
	srv, addr := startServer(t, DefaultServerConfig(), h)
	cl := testClient(t, DefaultClientConfig())
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	call := func(code int32, n, via string) {
		resp, err := cl.Invoke(context.Background(), addr, request(code, 0, n))
		switch {
		case err != nil:
		case resp.Code != Success || resp.Remark != via+":"+n:
			err = fmt.Errorf("call %s: code %d remark %q, want %s:%s", n, resp.Code, resp.Remark, via, n)
		case !bytes.Equal(resp.Body, bodyFor(n, h.size)):
			err = fmt.Errorf("call %s: body of %d bytes is not its own", n, len(resp.Body))
		}
		if err != nil {
			errs <- err
		}
	}
	for i := range 8 {
		wg.Go(func() { call(codeSlow, "slow"+strconv.Itoa(i), "handler") })
	}
	poll.For(t, 5*time.Second, "slow requests in flight", func() bool {
		conns := srv.Conns()
		return len(conns) == 1 && conns[0].InFlight() == 8
	})
	// A few callers at a time, each waiting for its answer: inline answers
	// are then often written directly while the writer goroutine writes a
	// handler's.
	for g := range 6 {
		wg.Go(func() {
			for i := range 50 {
				code, via := codeInline, "inline"
				if g%3 == 0 {
					code, via = codeFast, "handler"
				}
				call(code, strconv.Itoa(g*1000+i), via)
			}
		})
	}
	// The held requests are answered while inline ones are still coming.
	time.AfterFunc(time.Millisecond, func() { close(h.release) })
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := srv.Stats().Inline; got != 200 {
		t.Fatalf("Stats.Inline = %d, want 200", got)
	}
	if got := srv.Stats().OpenConns; got != 1 {
		t.Fatalf("%d connections open, want the one", got)
	}
}

// TestServer_InlineAnswerMirrorsRequest: an inline answer gets the
// request's opaque and serialize type like any other, and a oneway request
// is never answered inline.
func TestServer_InlineAnswerMirrorsRequest(t *testing.T) {
	h := &inlineHandler{release: make(chan struct{}), size: 10}
	close(h.release)
	srv, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	one := request(codeInline, 7, "oneway")
	one.Flag = FlagOneway
	rc.send(one)
	for i, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		req := request(codeInline, int32(40+i), "x")
		req.SerializeType = st
		rc.send(req)
		got := rc.read()
		if got.Opaque != req.Opaque || got.SerializeType != st || !got.IsResponse() || got.Remark != "inline:x" {
			t.Fatalf("answer %+v, want opaque %d, serialize type %d, inline", got, req.Opaque, st)
		}
	}
	if got := srv.Stats().Inline; got != 2 {
		t.Fatalf("Stats.Inline = %d, want 2 (the oneway request goes to a handler)", got)
	}
}

// TestServer_InlinePanicAnswersSystemError: a panic in ServeInline is
// answered SYSTEM_ERROR and the connection keeps working.
func TestServer_InlinePanicAnswersSystemError(t *testing.T) {
	h := &inlineHandler{release: make(chan struct{}), size: 10}
	srv, addr := startServer(t, DefaultServerConfig(), h)
	rc := dialRaw(t, addr)
	rc.send(request(codeInlinePanic, 1, "p"))
	if got := rc.read(); got.Code != SystemError || got.Opaque != 1 {
		t.Fatalf("after a panic: %+v, want SYSTEM_ERROR for opaque 1", got)
	}
	rc.send(request(codeInline, 2, "after"))
	if got := rc.read(); got.Code != Success || got.Opaque != 2 {
		t.Fatalf("after the panic: %+v", got)
	}
	if got := srv.Stats().HandlerPanics; got != 1 {
		t.Fatalf("Stats.HandlerPanics = %d, want 1", got)
	}
}

// TestServer_InlineRequestsAreChargedToTheBudget: a frame that finds no
// room in the memory budget is refused SYSTEM_BUSY before anyone could
// answer it inline, and inline answers give their charge back.
func TestServer_InlineRequestsAreChargedToTheBudget(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.Budget = membudget.New(2 << 20)
	cfg.BudgetWait = 10 * time.Millisecond
	h := &inlineHandler{release: make(chan struct{}), size: 10}
	srv, addr := startServer(t, cfg, h)
	rc := dialRaw(t, addr)
	big := request(codeSlow, 1, "held")
	big.Body = make([]byte, 3<<19) // 1.5 MiB, held by the slow handler
	rc.send(big)
	poll.For(t, 5*time.Second, "held request charged", func() bool { return cfg.Budget.InUse() > 1<<20 })
	second := request(codeInline, 2, "refused")
	second.Body = make([]byte, 1<<20)
	rc.send(second)
	if got := rc.read(); got.Code != SystemBusy || got.Opaque != 2 {
		t.Fatalf("inline request over the budget: %+v, want SYSTEM_BUSY for opaque 2", got)
	}
	for i := range 50 {
		rc.send(request(codeInline, int32(100+i), "small"))
		if got := rc.read(); got.Code != Success || got.Opaque != int32(100+i) {
			t.Fatalf("small inline request %d: %+v", i, got)
		}
	}
	close(h.release)
	if got := rc.read(); got.Code != Success || got.Opaque != 1 {
		t.Fatalf("held request: %+v", got)
	}
	poll.For(t, 5*time.Second, "budget released", func() bool { return cfg.Budget.InUse() == 0 })
	if peak := cfg.Budget.Peak(); peak > cfg.Budget.Limit() {
		t.Fatalf("budget peak %d over limit %d", peak, cfg.Budget.Limit())
	}
	if got := srv.Stats().Inline; got != 50 {
		t.Fatalf("Stats.Inline = %d, want 50", got)
	}
}

// TestServer_InlineWriteToPeerThatDoesNotReadTimesOut: a peer that sends
// requests answered inline but never reads its answers blocks the read
// goroutine's write, not the server: the connection is closed once
// WriteTimeout passes, and no more of its requests are read meanwhile.
func TestServer_InlineWriteToPeerThatDoesNotReadTimesOut(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.WriteTimeout = 200 * time.Millisecond
	cfg.MaxInflightPerConn = 4
	hk := newHooks(&cfg)
	h := &inlineHandler{release: make(chan struct{}), size: 1 << 20}
	srv, addr := startServer(t, cfg, h)
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4 << 10)
	}
	go func() {
		for i := 0; ; i++ {
			if WriteCommand(nc, request(codeInline, int32(i), "n")) != nil {
				return
			}
		}
	}()
	recv(t, hk.connected, "connect")
	c := recv(t, hk.closed, "the connection closed by the write timeout")
	var ne net.Error
	if err := c.Err(); !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("close reason %v, want a write timeout", err)
	}
	// Answers to pipelined requests join the writer's queue, which holds
	// MaxInflightPerConn of them; with it full, and 1 MiB answers filling
	// the socket buffers, the read goroutine stopped reading.
	t.Logf("%d requests read", srv.Stats().Requests)
	if got := srv.Stats().Requests; got > 32 {
		t.Fatalf("%d requests read from a peer that read no answer, want the queue's 4 and what the socket buffers hold", got)
	}
}
