package main

import (
	"bytes"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

func TestConfig_AddressServiceSettings(t *testing.T) {
	cfg, err := parseConfig([]string{"--address-service-addr", "127.0.0.1:0", "--address-service-max-connections", "9",
		"--remove-drain", "45s", "--advertise-client-addr", "ns-1.example:9876"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AddressServiceAddr != "127.0.0.1:0" || cfg.AddressServiceMaxConns != 9 || cfg.RemoveDrain != 45*time.Second ||
		cfg.AdvertiseClientAddr != "ns-1.example:9876" {
		t.Fatalf("parsed %+v", cfg)
	}
	props := cfg.properties()
	if props["addressServiceAddr"] != "127.0.0.1:0" || props["removeDrain"] != "45s" || props["advertiseClientAddr"] != "ns-1.example:9876" {
		t.Fatalf("effective configuration shows %q %q %q", props["addressServiceAddr"], props["removeDrain"], props["advertiseClientAddr"])
	}
	for _, args := range [][]string{
		{"--address-service-addr", "no-port"},
		{"--advertise-client-addr", "no-port"},
		{"--address-service-max-connections", "0"},
		{"--remove-drain", "-1s"},
		{"--remove-drain", "2h"},
	} {
		if _, err := parseConfig(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v was accepted", args)
		}
	}
}

func TestConfig_UnreachableClientAddressIsAStartError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	lns := &listeners{client: ln, cluster: ln}
	for _, tc := range []struct {
		args []string
		want string // "" when accepted
	}{
		{[]string{"--listen", ":0", "--peers", "n1=127.0.0.1:1,n2=127.0.0.1:2"}, ""},
		{[]string{"--listen", ":0", "--peers", "n1=10.0.0.1:9866,n2=10.0.0.2:9866"}, "on loopback"},
		{[]string{"--listen", ":0", "--join", "10.0.0.2:9866"}, "on loopback"},
		{[]string{"--listen", ":0", "--advertise-host", "10.0.0.1", "--peers", "n1=10.0.0.1:9866,n2=10.0.0.2:9866"}, ""},
		{[]string{"--advertise-client-addr", "10.0.0.1:9876", "--peers", "n1=10.0.0.1:9866,n2=10.0.0.2:9866"}, ""},
		{[]string{"--advertise-client-addr", "0.0.0.0:9876"}, "names no host"},
		{[]string{"--listen", ":0", "--advertise-host", "0.0.0.0"}, "names no host"},
	} {
		cfg, err := parseConfig(tc.args, &bytes.Buffer{})
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		_, err = clusterConfig(cfg, "n1", lns, hclog.NewNullLogger())
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v refused: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--advertise-client-addr")):
			t.Errorf("%v: err = %v, want one saying %q and naming --advertise-client-addr", tc.args, err, tc.want)
		}
	}
}
