package remoting

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

// A frame over the limit is logged at warning level, the default, with the
// peer and the size it announced; more in the same interval are not.
func TestServer_OversizedFrameWarnsWithPeerAndSize(t *testing.T) {
	var out bytes.Buffer
	cfg := DefaultServerConfig()
	hk := newHooks(&cfg)
	srv := NewServer(cfg, echo, hclog.New(&hclog.LoggerOptions{Level: hclog.Info, Output: &out}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	for i := 0; i < 3; i++ {
		bad := dialRaw(t, ln.Addr().String())
		recv(t, hk.connected, "connection")
		bad.sendBytes(rawFrame(16803435, 0, nil))
		bad.expectClosed()
		recv(t, hk.closed, "OnClose")
	}
	srv.Close() // every connection's goroutine is done: out is read alone
	logged := out.String()
	if n := strings.Count(logged, "[WARN]"); n != 1 {
		t.Fatalf("3 oversized frames logged %d warnings, want 1:\n%s", n, logged)
	}
	for _, want := range []string{"refused a frame", "remote=127.0.0.1:", "size=16803435", "limit=16777212"} {
		if !strings.Contains(logged, want) {
			t.Fatalf("warning lacks %q:\n%s", want, logged)
		}
	}
}

func TestWarnLimit_OnePerIntervalCountingTheRest(t *testing.T) {
	var w warnLimit
	t0 := time.Unix(1000, 0)
	if ok, held := w.allow(t0); !ok || held != 0 {
		t.Fatalf("first: %v %d", ok, held)
	}
	for i := 1; i <= 3; i++ {
		if ok, _ := w.allow(t0.Add(time.Duration(i) * time.Second)); ok {
			t.Fatalf("warning %d within the interval let through", i)
		}
	}
	if ok, held := w.allow(t0.Add(refusalWarnEvery)); !ok || held != 3 {
		t.Fatalf("after the interval: %v, %d held back; want true, 3", ok, held)
	}
}
