package main

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// A member whose cluster port is taken exits with the message startCluster
// looks for before it starts a cluster again on fresh ports.
func TestProcess_TakenPortIsRecognised(t *testing.T) {
	p := newProc(t, "n1")
	ln, err := net.Listen("tcp", p.ClusterAddr)
	if err != nil {
		t.Fatalf("take the member's cluster port %s: %v", p.ClusterAddr, err)
	}
	defer ln.Close()
	p.start()
	err = p.WaitReady(context.Background(), 30*time.Second)
	if !errors.Is(err, launch.ErrExited) || !strings.Contains(p.Log(), "address already in use") {
		t.Fatalf("WaitReady = %v with log:\n%s\nwant the member to exit saying the address is in use", err, p.Log())
	}
}
