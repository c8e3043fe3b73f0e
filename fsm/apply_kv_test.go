package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"maps"
	"testing"
)

func TestFSM_KV_PutGetDeleteList(t *testing.T) {
	h := newHarness(t)
	type step struct {
		name    string
		typ     CommandType
		cmd     any
		changed bool
	}
	steps := []step{
		{"put creates the namespace", PutKVType, &state.PutKV{Namespace: "NS", Key: "k1", Value: "v1", HasValue: true}, true},
		{"same put is a no-op", PutKVType, &state.PutKV{Namespace: "NS", Key: "k1", Value: "v1", HasValue: true}, false},
		{"put overwrites", PutKVType, &state.PutKV{Namespace: "NS", Key: "k1", Value: "v2", HasValue: true}, true},
		{"second key", PutKVType, &state.PutKV{Namespace: "NS", Key: "k2", Value: "", HasValue: true}, true},
		{"delete missing key", DeleteKVType, &state.DeleteKV{Namespace: "NS", Key: "nope"}, false},
		{"delete missing namespace", DeleteKVType, &state.DeleteKV{Namespace: "NOPE", Key: "k"}, false},
		{"delete", DeleteKVType, &state.DeleteKV{Namespace: "NS", Key: "k1"}, true},
		{"delete last key", DeleteKVType, &state.DeleteKV{Namespace: "NS", Key: "k2"}, true},
		{"put without value creates namespace", PutKVType, &state.PutKV{Namespace: "NV", Key: "k"}, true},
		{"put without value again", PutKVType, &state.PutKV{Namespace: "NV", Key: "k"}, false},
	}
	for _, st := range steps {
		gen := h.f.Generation()
		h.apply(st.typ, st.cmd)
		if changed := h.f.Generation() != gen; changed != st.changed {
			t.Fatalf("%s: generation changed = %v, want %v", st.name, changed, st.changed)
		}
	}
	for _, ns := range []string{"NS", "NV"} {
		if m, ok := h.f.KVList(ns); !ok || len(m) != 0 {
			t.Fatalf("KVList(%s) = %v, %v; want an existing empty namespace", ns, m, ok)
		}
	}
	if _, ok := h.f.KVList("NOPE"); ok {
		t.Fatal("KVList(NOPE) exists")
	}
	h.apply(PutKVType, &state.PutKV{Namespace: "NV", Key: "a", Value: "1", HasValue: true})
	if v, ok := h.f.KV("NV", "a"); !ok || v != "1" {
		t.Fatalf("KV(NV, a) = %q, %v", v, ok)
	}
	if _, ok := h.f.KV("NV", "k"); ok {
		t.Fatal("KV(NV, k) found after a put without value")
	}
	m, _ := h.f.KVList("NV")
	m["mutated"] = "x"
	if got, _ := h.f.KVList("NV"); !maps.Equal(got, map[string]string{"a": "1"}) {
		t.Fatalf("KVList after mutating a returned copy = %v", got)
	}
	want := map[string]map[string]string{"NS": {}, "NV": {"a": "1"}}
	if got := h.f.KVTables(); !maps.EqualFunc(got, want, maps.Equal) {
		t.Fatalf("KVTables = %v, want %v", got, want)
	}
}

func TestFSM_KV_OrderTopicConfInRoutes(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "Ordered"))
	h.apply(PutKVType, &state.PutKV{Namespace: state.NamespaceOrderTopicConfig, Key: "Ordered", Value: "broker-a:8", HasValue: true})
	if rd, _ := h.f.Route("Ordered", true); rd.OrderTopicConf != "broker-a:8" {
		t.Fatalf("orderTopicConf = %q, want broker-a:8", rd.OrderTopicConf)
	}
	if rd, _ := h.f.Route("Ordered", false); rd.OrderTopicConf != "" {
		t.Fatalf("orderTopicConf without the option = %q, want empty", rd.OrderTopicConf)
	}
}
