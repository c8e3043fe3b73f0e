package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
)

// A member started with the client address another member advertises is
// refused, with both named, and the address service keeps listing each
// address once.
func TestProcessSecondMemberWithOneClientAddressIsRefused(t *testing.T) {
	n1, n2, n3 := newProc(t, "n1"), newProc(t, "n2"), newProc(t, "n3")
	// n1 and n3 form the cluster (a first formation waits for every
	// initial peer); n2 comes later, as a member to be added would.
	peers := "--peers=n1=" + n1.ClusterAddr + ",n3=" + n3.ClusterAddr
	n1.Args = []string{peers, "--advertise-client-addr", n1.ClientAddr}
	n3.Args = []string{peers}
	n1.start()
	n3.start()
	n1.waitReady()
	n3.waitReady()

	// n2 is set up as a copied configuration would be: n1's client address.
	n2.Args = []string{peers, "--advertise-client-addr", n1.ClientAddr}
	n2.start()
	err := n2.WaitReady(context.Background(), 30*time.Second)
	if !errors.Is(err, launch.ErrExited) {
		t.Fatalf("n2 with n1's client address: %v, want it to exit", err)
	}
	if code := n2.ExitCode(); code != 1 {
		t.Errorf("n2 exit code %d, want 1", code)
	}
	log := n2.Log()
	for _, want := range []string{"member n2 advertises client address " + n1.ClientAddr, "member n1", "--advertise-client-addr"} {
		if !strings.Contains(log, want) {
			t.Errorf("n2's log does not say %q:\n%s", want, log)
		}
	}
	for _, p := range []*proc{n1, n3} {
		var list string
		poll.For(t, 30*time.Second, p.ID+"'s address service to list n1 and n3", func() bool {
			var code int
			code, list = addressService(p)
			return code == 200 && strings.Contains(list, n1.ClientAddr) && strings.Contains(list, n3.ClientAddr)
		})
		if strings.Count(list, n1.ClientAddr) != 1 {
			t.Errorf("%s's address service lists %q, want n1's address once", p.ID, list)
		}
	}
}
