package launch

import (
	"net"
	"testing"
)

func TestFreeAddr_NeverRepeatsAnAddress(t *testing.T) {
	seen := map[string]bool{}
	for range 500 {
		addr, err := FreeAddr()
		if err != nil {
			t.Fatal(err)
		}
		if seen[addr] {
			t.Fatalf("FreeAddr returned %s twice", addr)
		}
		seen[addr] = true
	}
}

func TestFreeAddr_CanBeBound(t *testing.T) {
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("bind %s: %v", addr, err)
	}
	ln.Close()
}
