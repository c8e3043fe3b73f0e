package main

import "testing"

func TestConfig_ListsKindsAndSources(t *testing.T) {
	f := newFakeAdmin(t, 200, `{"id":"ns-1","settings":[`+
		`{"scope":"namesrv","key":"listen","kind":"member-local","value":":9876","own":":9876","hasOwn":true},`+
		`{"scope":"namesrv","key":"orderMessageEnable","kind":"cluster-wide","value":"true","own":"false","hasOwn":true,"fromCluster":true}]}`)
	r := ctl(t, "--addr", f.addr(), "config")
	want := "SCOPE    KEY                 KIND          VALUE  OWN    SOURCE\n" +
		"namesrv  listen              member-local  :9876  :9876  member\n" +
		"namesrv  orderMessageEnable  cluster-wide  true   false  cluster\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", r.code, r.stdout, want, r.stderr)
	}
}

func TestConfigDiff_ShowsTheMembersThatDiffer(t *testing.T) {
	setting := func(key, kind, own string) string {
		return `{"scope":"namesrv","key":"` + key + `","kind":"` + kind + `","value":"x","own":"` + own + `","hasOwn":true}`
	}
	answer := `[{"id":"ns-1","settings":[` + setting("orderMessageEnable", "cluster-wide", "true") + `,` +
		setting("enableTopicList", "cluster-wide", "true") + `,` + setting("listen", "member-local", ":1") + `]},` +
		`{"id":"ns-2","settings":[` + setting("orderMessageEnable", "cluster-wide", "false") + `,` +
		setting("enableTopicList", "cluster-wide", "true") + `,` + setting("listen", "member-local", ":2") + `]},` +
		`{"id":"ns-3","error":"timeout"}]`
	f := newFakeAdmin(t, 200, answer)
	r := ctl(t, "--addr", f.addr(), "config", "diff")
	want := "SCOPE    KEY                 KIND          ns-1  ns-2\n" +
		"namesrv  orderMessageEnable  cluster-wide  true  false\n" +
		"member ns-3 did not report its settings\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", r.code, r.stdout, want, r.stderr)
	}
	r = ctl(t, "--addr", f.addr(), "config", "diff", "--all")
	if r.code != 0 || r.stdout != "SCOPE    KEY                 KIND          ns-1  ns-2\n"+
		"namesrv  listen              member-local  :1    :2\n"+
		"namesrv  orderMessageEnable  cluster-wide  true  false\n"+
		"member ns-3 did not report its settings\n" {
		t.Fatalf("--all: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	if got := f.requests()[0].Path; got != "/v1/config/members" {
		t.Fatalf("asked %s", got)
	}
}
