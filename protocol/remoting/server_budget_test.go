package remoting

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/internal/poll"
)

// TestServer_BudgetAnswersSystemBusyAndHoldsAtMostTheLimit sends more body
// bytes than the budget admits while the handlers hold theirs: the excess
// requests are answered SYSTEM_BUSY, the budget never goes over its limit,
// and the connection keeps working once memory is free again.
func TestServer_BudgetAnswersSystemBusyAndHoldsAtMostTheLimit(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.Budget = membudget.New(3 << 20)
	cfg.BudgetWait = 10 * time.Millisecond
	release := make(chan struct{})
	h := HandlerFunc(func(_ context.Context, _ *Conn, req *Command) *Command {
		if req.Code == codeSlow {
			<-release
		}
		return NewResponse(req, Success, "")
	})
	srv, addr := startServer(t, cfg, h)
	rc := dialRaw(t, addr)
	body := make([]byte, 1<<20)
	for i := range 5 {
		c := request(codeSlow, int32(i), "")
		c.Body = body
		rc.send(c)
	}
	// Two of the five fit beside each other (each frame is a little over
	// 1 MiB); the rest are refused without their bodies being kept.
	busy := map[int32]bool{}
	for range 3 {
		resp := rc.read()
		if resp.Code != SystemBusy {
			t.Fatalf("response %d: code %d, want SYSTEM_BUSY", resp.Opaque, resp.Code)
		}
		busy[resp.Opaque] = true
	}
	if got := srv.Stats().Busy; got != 3 {
		t.Fatalf("Stats.Busy = %d, want 3", got)
	}
	if peak := cfg.Budget.Peak(); peak > cfg.Budget.Limit() {
		t.Fatalf("budget peak %d over limit %d", peak, cfg.Budget.Limit())
	}
	close(release)
	for range 2 {
		if resp := rc.read(); resp.Code != Success || busy[resp.Opaque] {
			t.Fatalf("held request answered %d (opaque %d)", resp.Code, resp.Opaque)
		}
	}
	poll.For(t, 5*time.Second, "budget released", func() bool { return cfg.Budget.InUse() == 0 })
	rc.send(request(1, 99, "after"))
	if resp := rc.read(); resp.Code != Success || resp.Opaque != 99 {
		t.Fatalf("after the burst: %+v", resp)
	}
}

// TestServer_FrameLargerThanBudgetIsRefused: a frame bigger than the whole
// budget can never fit and is refused at once.
func TestServer_FrameLargerThanBudgetIsRefused(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.Budget = membudget.New(64 << 10)
	_, addr := startServer(t, cfg, echo)
	rc := dialRaw(t, addr)
	c := request(1, 7, "")
	c.Body = make([]byte, 128<<10)
	rc.send(c)
	if resp := rc.read(); resp.Code != SystemBusy || resp.Opaque != 7 {
		t.Fatalf("got %+v, want SYSTEM_BUSY for opaque 7", resp)
	}
}

// TestServer_SlowFrameClosesConnection: a sender that starts a frame and
// trickles it is disconnected after FrameTimeout, while an idle connection
// (no frame started) stays open.
func TestServer_SlowFrameClosesConnection(t *testing.T) {
	cfg := DefaultServerConfig()
	cfg.FrameTimeout = 300 * time.Millisecond
	h := newHooks(&cfg)
	srv, addr := startServer(t, cfg, echo)
	idle := dialRaw(t, addr)
	recv(t, h.connected, "idle connect")
	slow := dialRaw(t, addr)
	recv(t, h.connected, "slow connect")
	frame, err := EncodeFrame(request(1, 1, "x"))
	if err != nil {
		t.Fatal(err)
	}
	slow.sendBytes(frame[:6])
	closed := recv(t, h.closed, "slow close")
	if !errors.Is(closed.Err(), ErrFrameTimeout) {
		t.Fatalf("close reason %v, want ErrFrameTimeout", closed.Err())
	}
	if srv.Stats().SlowFrames != 1 {
		t.Fatalf("SlowFrames = %d", srv.Stats().SlowFrames)
	}
	idle.send(request(1, 2, "still"))
	if resp := idle.read(); resp.Remark != "still" {
		t.Fatalf("idle connection: %+v", resp)
	}
}
