package cluster

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckClientAddr(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		others []string
		want   string // "" for accepted, else a part of the error
	}{
		{"10.0.0.1:9876", []string{"10.0.0.2:9866"}, ""},
		{"ns-0.raftns:9876", nil, ""},
		{"127.0.0.1:9876", []string{"127.0.0.1:9866", "localhost:9867", "[::1]:9868"}, ""},
		{"localhost:9876", nil, ""},
		{"0.0.0.0:9876", nil, "names no host"},
		{"[::]:9876", nil, "names no host"},
		{":9876", nil, "names no host"},
		{"no-port", nil, "advertised client address"},
		{"127.0.0.1:9876", []string{"127.0.0.1:9866", "10.0.0.2:9866"}, `member address "10.0.0.2:9866" is not`},
		{"LOCALHOST:9876", []string{"ns-1.raftns:9866"}, "on loopback"},
		{"[::1]:9876", []string{"[2001:db8::2]:9866"}, "on loopback"},
	} {
		err := CheckClientAddr(tc.addr, tc.others)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckClientAddr(%q, %v) = %v, want accepted", tc.addr, tc.others, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrBadConfig)):
			t.Errorf("CheckClientAddr(%q, %v) = %v, want an ErrBadConfig saying %q", tc.addr, tc.others, err, tc.want)
		}
	}
}
