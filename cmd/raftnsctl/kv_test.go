package main

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/snapshots"
)

func TestKV_PutGetListDelete(t *testing.T) {
	memberCtl(t, "kv", "put", "KV_NS", "b", "two words").mustSucceed(t)
	if r := memberCtl(t, "kv", "put", "KV_NS", "a", "1").mustSucceed(t); r.stdout != "put KV_NS a\n" {
		t.Errorf("put output = %q", r.stdout)
	}
	memberCtl(t, "kv", "put", "KV_NS", "c", "tab\there\nline").mustSucceed(t)
	memberCtl(t, "kv", "put", "KV_NS", "empty", "").mustSucceed(t)

	cases := []struct{ key, want string }{
		{"a", "1\n"}, {"b", "two words\n"}, {"c", "tab\there\nline\n"}, {"empty", "\n"},
	}
	for _, tc := range cases {
		if r := memberCtl(t, "kv", "get", "KV_NS", tc.key).mustSucceed(t); r.stdout != tc.want {
			t.Errorf("kv get KV_NS %s = %q, want %q", tc.key, r.stdout, tc.want)
		}
	}
	r := memberCtl(t, "kv", "get", "KV_NS", "a", "-o", "json").mustSucceed(t)
	var e adminapi.KV
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e != (adminapi.KV{Namespace: "KV_NS", Key: "a", Value: "1"}) {
		t.Errorf("kv get -o json = %s (err %v)", r.stdout, err)
	}

	r = memberCtl(t, "kv", "list", "KV_NS").mustSucceed(t)
	want := "KEY    VALUE\n" +
		"a      1\n" +
		"b      two words\n" +
		`c      "tab\there\nline"` + "\n" +
		`empty  ""` + "\n"
	if r.stdout != want {
		t.Errorf("kv list:\n%s\nwant:\n%s", r.stdout, want)
	}
	r = memberCtl(t, "kv", "list", "KV_NS", "-o", "json").mustSucceed(t)
	var list struct {
		Namespace string
		Table     map[string]string
	}
	wantTable := map[string]string{"a": "1", "b": "two words", "c": "tab\there\nline", "empty": ""}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || list.Namespace != "KV_NS" || !maps.Equal(list.Table, wantTable) {
		t.Errorf("kv list -o json = %s (err %v)", r.stdout, err)
	}

	if r := memberCtl(t, "kv", "delete", "KV_NS", "a").mustSucceed(t); r.stdout != "deleted KV_NS a\n" {
		t.Errorf("delete output = %q", r.stdout)
	}
	memberCtl(t, "kv", "get", "KV_NS", "a").
		mustFail(t, 1, "raftnsctl: not found: kv get KV_NS a: name server "+member.ClientAddr+" answered QUERY_NOT_FOUND: No config item, Namespace: KV_NS Key: a")
	// Deleting a missing key succeeds, as on the reference name server.
	memberCtl(t, "kv", "delete", "KV_NS", "a").mustSucceed(t)
}

func TestKV_ListMissingNamespaceExitsOne(t *testing.T) {
	r := memberCtl(t, "kv", "list", "NO_SUCH_NS").mustFail(t, 1, "QUERY_NOT_FOUND: No config item, Namespace: NO_SUCH_NS")
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
}

func TestKVImport_SetsEveryKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "kvConfig.json")
	writeFile(t, file, []byte(`{"configTable":{"IMPORT_B":{"k":"v","gone":null},`+
		`"IMPORT_A":{"x":"1","y":"a;b"},"IMPORT_EMPTY":{}}}`))
	r := memberCtl(t, "kv", "import", file).mustSucceed(t)
	if r.stdout != "imported 3 keys from "+file+"\n" {
		t.Errorf("import output = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, `namespace "IMPORT_EMPTY" has no keys; skipped`) {
		t.Errorf("stderr = %q, want a warning about the empty namespace", r.stderr)
	}
	r = memberCtl(t, "kv", "export", "IMPORT_A", "IMPORT_B").mustSucceed(t)
	if r.stdout != `{"configTable":{"IMPORT_A":{"x":"1","y":"a;b"},"IMPORT_B":{"k":"v"}}}`+"\n" {
		t.Errorf("export after import = %q", r.stdout)
	}
}

func TestKVImport_DryRunSendsNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "kvConfig.json")
	writeFile(t, file, []byte(`{"configTable":{"DRY":{"k":"v w","t":"a\tb"}}}`))
	// Nothing listens at --namesrv: a dry run must not need it.
	r := ctl(t, "--namesrv", closedPort(t), "kv", "import", "--dry-run", file).mustSucceed(t)
	want := "NAMESPACE  KEY  VALUE\nDRY        k    v w\nDRY        t    \"a\\tb\"\n"
	if r.stdout != want {
		t.Errorf("dry run:\n%s\nwant:\n%s", r.stdout, want)
	}
}

func TestKVImport_BadFileChangesNothing(t *testing.T) {
	cases := []struct {
		name, content, wantErr string
	}{
		{"not json", `configTable=1`, "invalid kvConfig.json"},
		{"truncated", `{"configTable":{"BAD_TRUNC":{"a":"1"}`, "invalid kvConfig.json"},
		{"wrong shape", `{"configTable":{"BAD_SHAPE":["a"]}}`, "invalid kvConfig.json"},
		{"number value", `{"configTable":{"BAD_NUMBER":{"a":"1","b":2}}}`, "invalid kvConfig.json"},
		{"empty document", "  \n", "empty document"},
		{"empty key", `{"configTable":{"BAD_KEY":{"a":"1","":"2"}}}`, `empty key name in namespace "BAD_KEY"`},
		{"empty namespace", `{"configTable":{"BAD_NS":{"a":"1"},"":{"b":"2"}}}`, "empty namespace name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "kvConfig.json")
			writeFile(t, file, []byte(tc.content))
			memberCtl(t, "kv", "import", file).mustFail(t, 1, tc.wantErr)
			for _, ns := range []string{"BAD_TRUNC", "BAD_SHAPE", "BAD_NUMBER", "BAD_KEY", "BAD_NS"} {
				memberCtl(t, "kv", "list", ns).mustFail(t, 1, "QUERY_NOT_FOUND")
			}
		})
	}
	memberCtl(t, "kv", "import", filepath.Join(t.TempDir(), "none.json")).mustFail(t, 1, "no such file")
}

func TestKVExport_RoundTripsThroughTheReferenceFormat(t *testing.T) {
	memberCtl(t, "kv", "put", "EXPORT_B", "q", `say "hi"`).mustSucceed(t)
	memberCtl(t, "kv", "put", "EXPORT_A", "p", "1").mustSucceed(t)
	r := memberCtl(t, "kv", "export", "EXPORT_B", "EXPORT_A").mustSucceed(t)
	got, err := snapshots.ParseKVConfigJSON([]byte(r.stdout))
	if err != nil {
		t.Fatalf("export output does not parse: %v\n%s", err, r.stdout)
	}
	want := map[string]map[string]string{"EXPORT_A": {"p": "1"}, "EXPORT_B": {"q": `say "hi"`}}
	if !maps.EqualFunc(got, want, maps.Equal) {
		t.Fatalf("export = %v, want %v", got, want)
	}
	if r.stdout != string(snapshots.FormatKVConfigJSON(want))+"\n" {
		t.Errorf("export = %q, want the reference format", r.stdout)
	}

	r = memberCtl(t, "kv", "export", "EXPORT_A", "EXPORT_MISSING").mustFail(t, 1, "kv list EXPORT_MISSING")
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing when a namespace is missing", r.stdout)
	}
}
