package docsamples

import (
	"reflect"
	"strings"
	"testing"
)

const doc = "# T\n\n```sh\nX='a;b'\nexport E=1\n```\n\n- item\n\n  ```sh attr\n  for h in h1 h2; do tool --to \"$X\" $h; done\n  kubectl exec p -- raftnsctl status\n  kubectl scale statefulset/raftnsctl\n  ```\n\n```\nuntagged\n```\n"

func TestFencedBlocks_ReadsNestedBlocksAndTheirLines(t *testing.T) {
	bs := FencedBlocks("d.md", []byte(doc))
	if len(bs) != 3 {
		t.Fatalf("%d blocks: %+v", len(bs), bs)
	}
	if bs[1].Lang != "sh" || bs[1].Attr() != "attr" || bs[1].Line != 11 || !strings.HasPrefix(bs[1].Text, "for h") {
		t.Errorf("nested block = %+v", bs[1])
	}
	if bs[2].Lang != "" || bs[2].Line != 17 {
		t.Errorf("untagged block = %+v", bs[2])
	}
}

func TestCommands_InterpretsWithoutRunning(t *testing.T) {
	cmds, errs := Commands(".", FencedBlocks("d.md", []byte(doc)), "raftnsctl")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var got [][]string
	for _, c := range cmds {
		got = append(got, c.Args)
	}
	want := [][]string{
		{"tool", "--to", "a;b", "h1"}, {"tool", "--to", "a;b", "h2"},
		{"kubectl", "exec", "p", "--", "raftnsctl", "status"}, {"raftnsctl", "status"},
		{"kubectl", "scale", "statefulset/raftnsctl"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("commands = %q, want %q", got, want)
	}
	if cmds[0].Line != 11 || cmds[3].Line != 12 || cmds[3].Env["E"] != "1" {
		t.Errorf("line %d, %d, env %v", cmds[0].Line, cmds[3].Line, cmds[3].Env)
	}
}

func TestCommands_RefusesUnsetVariables(t *testing.T) {
	_, errs := Commands(".", FencedBlocks("d.md", []byte("```sh\ntool \"$MISSING\"\n```\n")))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "MISSING") {
		t.Fatalf("errs = %v", errs)
	}
}

func TestLinks_AnchorsAsGitHubMakesThem(t *testing.T) {
	src := "# Raft timers, failover and `--raft-multiplier`\n\n## Logs\n\n## Logs\n\nSee [x](other.md#a) and [y](#logs-1).\n"
	links, anchors := Links("d.md", []byte(src))
	for _, want := range []string{"raft-timers-failover-and---raft-multiplier", "logs", "logs-1"} {
		if !anchors[want] {
			t.Errorf("no anchor %q in %v", want, anchors)
		}
	}
	if len(links) != 2 || links[0].Dest != "other.md#a" || links[1].Dest != "#logs-1" {
		t.Errorf("links = %+v", links)
	}
}
