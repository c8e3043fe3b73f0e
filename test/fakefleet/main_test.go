package main

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// recorder is a name server that accepts everything and counts, per code,
// the registered topics and the requests.
type recorder struct {
	addr   string
	mu     sync.Mutex
	codes  map[int32]int
	topics map[string]bool
}

func startRecorder(t *testing.T) *recorder {
	r := &recorder{codes: map[int32]int{}, topics: map[string]bool{}}
	rs := remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.codes[req.Code]++
			if req.Code == remoting.RegisterBroker {
				rb, err := body.DecodeRegisterBody(req.Body, false, req.Version)
				if err != nil {
					return remoting.NewResponse(req, remoting.SystemError, err.Error())
				}
				for _, tc := range rb.TopicConfigs {
					r.topics[tc.TopicName] = true
				}
			}
			return remoting.NewResponse(req, remoting.Success, "")
		}), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	go rs.Serve(ln)
	t.Cleanup(func() { rs.Close() })
	return r
}

func (r *recorder) counts() (registers, unregisters, topics int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.codes[remoting.RegisterBroker], r.codes[remoting.UnregisterBroker], len(r.topics)
}

func TestRun_RegistersKeepsAndUnregisters(t *testing.T) {
	a, b := startRecorder(t), startRecorder(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-ns", a.addr + ";" + b.addr, "-brokers", "3", "-topics", "100", "-extra", "7", "-every", "50ms"}, &out)
	}()
	poll.For(t, 10*time.Second, "a heartbeat round after the registrations", func() bool {
		regs, _, _ := b.counts()
		return regs >= 6
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := "ready: 3 brokers, 100 topics (+7 on " + a.addr + " only)"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("output %q, want it to start with %q", out.String(), want)
	}
	if _, unregs, topics := a.counts(); unregs != 4 || topics != 107 {
		t.Errorf("first name server: %d unregistrations, %d topics; want 4 and 107", unregs, topics)
	}
	if _, unregs, topics := b.counts(); unregs != 3 || topics != 100 {
		t.Errorf("second name server: %d unregistrations, %d topics; want 3 and 100", unregs, topics)
	}
}

func TestRun_RefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-ns", ";"}, {"-brokers", "0"}, {"-topics", "2", "-brokers", "3"}, {"-every", "0s"}, {"-nope"}} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
