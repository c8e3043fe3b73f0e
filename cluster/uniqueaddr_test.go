package cluster

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestAddressClashNamesBothMembers(t *testing.T) {
	self := addrHolder{ID: "n2", ClientAddr: "10.0.0.1:9876", ClusterAddr: "10.0.0.2:9866"}
	for _, tc := range []struct {
		name  string
		other addrHolder
		want  []string // nil for no clash
	}{
		{"own entry", addrHolder{ID: "n2", ClientAddr: "10.0.0.1:9876", ClusterAddr: "10.0.0.2:9866"}, nil},
		{"different addresses", addrHolder{ID: "n1", ClientAddr: "10.0.0.9:9876", ClusterAddr: "10.0.0.9:9866"}, nil},
		{"same client address", addrHolder{ID: "n1", ClientAddr: "10.0.0.1:9876", ClusterAddr: "10.0.0.1:9866"},
			[]string{"member n2", "member n1", "client address 10.0.0.1:9876", "--advertise-client-addr"}},
		{"same cluster address", addrHolder{ID: "n1", ClientAddr: "10.0.0.9:9876", ClusterAddr: "10.0.0.2:9866"},
			[]string{"member n2", "member n1", "cluster address 10.0.0.2:9866", "--cluster-addr"}},
	} {
		err := addressClash(self, tc.other)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v, want no clash", tc.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrAddressInUse) {
			t.Errorf("%s: %v, want ErrAddressInUse", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", tc.name, err, w)
			}
		}
	}
}

func TestDistinctAddrsKeepsTheFirstOfEach(t *testing.T) {
	in := []string{"a:1", "b:1", "a:1", "c:1", "b:1"}
	if got := distinctAddrs(in); !slices.Equal(got, []string{"a:1", "b:1", "c:1"}) {
		t.Fatalf("distinctAddrs(%v) = %v", in, got)
	}
	if !slices.Equal(in, []string{"a:1", "b:1", "a:1", "c:1", "b:1"}) {
		t.Fatalf("distinctAddrs changed its argument: %v", in)
	}
}

func TestConfigRefusesPeersWithOneClusterAddress(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ID, cfg.DataDir, cfg.ClusterAddr = "n1", t.TempDir(), "127.0.0.1:9866"
	cfg.Peers = []Peer{{ID: "n1", Addr: "127.0.0.1:9866"}, {ID: "n2", Addr: "127.0.0.1:9867"}, {ID: "n3", Addr: "127.0.0.1:9867"}}
	err := cfg.Validate()
	if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "peers n2 and n3") {
		t.Fatalf("Validate = %v, want an ErrBadConfig naming n2 and n3", err)
	}
}
