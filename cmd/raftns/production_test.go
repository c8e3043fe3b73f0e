package main

import (
	"bytes"
	"testing"

	"github.com/raftns/raftns/namesrv"
)

// TestProductionSource_OrderOfTheReferenceClient: productionNamesrvAddr,
// then rocketmq.namesrv.addr, then NAMESRV_ADDR; the address service's
// domain and the unit pass through, and a run-time update applies.
func TestProductionSource_OrderOfTheReferenceClient(t *testing.T) {
	cfg, err := parseConfig([]string{"--data-dir", t.TempDir(), "--product-env-name", "prod",
		"--production-namesrv-domain", "ns.example.com"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	settings := namesrv.NewSettings(cfg.properties(), nil, protectedKeys()...)
	env := map[string]string{}
	src := productionSource(settings, func(k string) string { return env[k] })

	if s := src(); s.Addrs != "" || s.Domain != "ns.example.com" || s.Subgroup != "nsaddr" || s.EnvName != "prod" {
		t.Fatalf("without addresses: %+v", s)
	}
	env["NAMESRV_ADDR"] = "10.0.0.3:9876"
	if s := src(); s.Addrs != "10.0.0.3:9876" {
		t.Fatalf("NAMESRV_ADDR: %+v", s)
	}
	for _, step := range []struct{ key, value string }{
		{namesrv.PropNamesrvAddr, "10.0.0.2:9876"},
		{namesrv.PropProductionNamesrvAddr, "10.0.0.1:9876"},
	} {
		if err := settings.Update(map[string]string{step.key: step.value}); err != nil {
			t.Fatal(err)
		}
		if s := src(); s.Addrs != step.value {
			t.Fatalf("after %s=%s: addrs %q", step.key, step.value, s.Addrs)
		}
	}
}
