package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"github.com/raftns/raftns/client/nscompare"
	"github.com/raftns/raftns/internal/adminapi"
)

// hostile is text a member or an old name server may hold: a clear
// screen, a colour, a carriage return over the line, a right-to-left
// override, a bell, a C1 control sequence introducer and a tab.
const hostile = "a\x1b[2J\x1b[31mb\rc\u202ed\x07e\u009bf\tg"

// mustBeInert fails if out holds a control or format character other than
// the newline ending each line and the tab between the columns of a
// stream (a stream's text is checked without its tabs: there are exactly
// columns-1 of them a line).
func mustBeInert(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && r != ' ' && !unicode.IsPrint(r) {
			t.Fatalf("%s printed %U raw:\n%q", what, r, out)
		}
	}
	if !strings.Contains(out, `\x1b[2J`) {
		t.Fatalf("%s does not show the escaped text:\n%s", what, out)
	}
}

func TestEscape_AuditTableShowsControlCharactersEscaped(t *testing.T) {
	page := `{"records":[{"index":7,"time":"2026-01-02T03:04:05Z","who":"anonymous","via":"n1","kind":"kv-put",` +
		`"topic":"T\u001b[2J","detail":"value=\u001b[2J\u202e","outcome":"applied"}],"total":1,"lastIndex":7}`
	f := newFakeAdmin(t, 200, page)
	r := ctl(t, "--addr", f.addr(), "audit").mustSucceed(t)
	mustBeInert(t, "audit", r.stdout)
	var buf bytes.Buffer
	if err := printAudit(&buf, []adminapi.AuditRecord{{Kind: hostile, Who: hostile, Detail: hostile}}, true); err != nil {
		t.Fatal(err)
	}
	mustBeInert(t, "audit table", buf.String())
}

func TestEscape_WatchStreamShowsControlCharactersEscaped(t *testing.T) {
	var buf bytes.Buffer
	a := &app{stdout: &buf}
	err := a.printChanges(adminapi.WatchResult{Index: 9, Changes: []adminapi.WatchChange{
		{Index: 9, Kinds: []string{"route"}, Topics: []string{hostile}, Clusters: []string{hostile}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(buf.String(), "\t"); got != 3 {
		t.Fatalf("watch line has %d tabs, want 3 (four columns): %q", got, buf.String())
	}
	mustBeInert(t, "watch", strings.ReplaceAll(buf.String(), "\t", " "))
}

func TestEscape_KVListAndImportPlanShowControlCharactersEscaped(t *testing.T) {
	var buf bytes.Buffer
	tw := newTable(&buf, "KEY", "VALUE")
	row(tw, cell(hostile), cell(hostile))
	tw.Flush()
	mustBeInert(t, "kv list", buf.String())

	buf.Reset()
	old := hostile
	plan := &nscompare.Plan{References: []string{hostile}, Target: "raftns",
		KV:    []nscompare.KVChange{{Action: nscompare.ActionUpdate, Namespace: hostile, Key: hostile, Value: hostile, Old: &old}},
		Perms: []nscompare.PermChange{{Action: nscompare.ActionWipe, Broker: hostile}},
		Conflicts: []nscompare.Difference{{Kind: nscompare.KindKV, Subject: hostile, Problem: nscompare.Different,
			Values: []*string{&old}}}}
	if err := printPlan(&buf, plan, true); err != nil {
		t.Fatal(err)
	}
	mustBeInert(t, "migrate import", buf.String())
}
