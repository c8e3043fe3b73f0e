package transport

import (
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/raft"
)

// refusedAddr returns a loopback address nothing listens on.
func refusedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestPatientLayer_DialWaitsForTheMemberToListen(t *testing.T) {
	addr := refusedAddr(t)
	layer := PatientLayer{RaftLayer: RaftLayer{Dialer: Dialer{}}, Stop: make(chan struct{})}
	type result struct {
		conn net.Conn
		err  error
	}
	done := make(chan result, 1)
	go func() {
		c, err := layer.Dial(raft.ServerAddress(addr), 30*time.Second)
		done <- result{c, err}
	}()
	// Let the first attempts be refused, then start listening: the dial
	// under way must connect instead of failing.
	time.Sleep(3 * redialInterval)
	select {
	case r := <-done:
		t.Fatalf("dial returned before anything listened: %v", r.err)
	default:
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", addr, err)
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			defer c.Close()
			b := make([]byte, 1)
			c.Read(b)
		}
	}()
	r := <-done
	if r.err != nil {
		t.Fatalf("dial failed although the member listens now: %v", r.err)
	}
	r.conn.Close()
}

func TestPatientLayer_DialGivesUpAtShutdownAndOnOtherErrors(t *testing.T) {
	stop := make(chan struct{})
	layer := PatientLayer{RaftLayer: RaftLayer{Dialer: Dialer{}}, Stop: stop}
	done := make(chan error, 1)
	go func() {
		_, err := layer.Dial(raft.ServerAddress(refusedAddr(t)), time.Hour)
		done <- err
	}()
	close(stop)
	if err := <-done; !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial after shutdown returned %v, want the refusal", err)
	}
	// A timeout shorter than one retry interval gives one attempt.
	if _, err := layer.Dial(raft.ServerAddress(refusedAddr(t)), redialInterval/2); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("short dial returned %v, want the refusal", err)
	}
}
