package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coreos/go-systemd/v22/unit"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/docsamples"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	yamlv3 "gopkg.in/yaml.v3"
	"mvdan.cc/sh/v3/syntax"
	"sigs.k8s.io/yaml"
)

const root = "../.."

// knownLangs are the info strings a block may have.
var knownLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "properties": true, "yaml": true, "json": true, "ini": true, "text": true}

func blocks(t *testing.T) []docsamples.Block {
	t.Helper()
	bs, err := docsamples.Blocks(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) == 0 {
		t.Fatal("no fenced block found in README.md and docs/")
	}
	return bs
}

func TestDocs_EveryBlockNamesItsKind(t *testing.T) {
	for _, b := range blocks(t) {
		if !knownLangs[b.Lang] {
			t.Errorf("%s: fenced block tagged %q; tag it sh, properties, yaml, json, ini, or text (output, synopsis, not checked)", b.Where(), b.Lang)
		}
	}
}

func TestDocs_ShellBlocksRunAsWritten(t *testing.T) {
	cmds, errs := docsamples.Commands(root, blocks(t))
	for _, err := range errs {
		t.Error(err)
	}
	if len(cmds) == 0 {
		t.Fatal("no command line found")
	}
	targets := makeTargets(t)
	for _, c := range cmds {
		if c.Program() == "make" {
			for _, a := range c.Args[1:] {
				if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && !targets[a] {
					t.Errorf("%s: make %s: no such target in the Makefile", c.Where(), a)
				}
			}
		}
		for _, a := range c.Args {
			if p, ok := repoPath(c.Dir, a); ok {
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					t.Errorf("%s: %s: %v", c.Where(), a, err)
				}
			}
		}
	}
}

// makeTargets are the Makefile's targets.
func makeTargets(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	targets := map[string]bool{}
	re := regexp.MustCompile(`^([A-Za-z0-9_.-]+):([^=]|$)`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			targets[m[1]] = true
		}
	}
	if err := sc.Err(); err != nil || len(targets) == 0 {
		t.Fatalf("Makefile targets: %v (%d found)", err, len(targets))
	}
	return targets
}

// repoPath reports whether word names a file of the repository: a relative
// path whose first element, seen from dir, is a directory the repository
// holds (bin/ is built, not held).
func repoPath(dir, word string) (string, bool) {
	if strings.HasPrefix(word, "-") || filepath.IsAbs(word) || !strings.Contains(word, "/") || strings.Contains(word, "://") {
		return "", false
	}
	p := filepath.Join(dir, word)
	first := strings.Split(filepath.ToSlash(p), "/")[0]
	if first == "bin" || first == ".." {
		return "", false
	}
	if fi, err := os.Stat(filepath.Join(root, first)); err != nil || !fi.IsDir() {
		return "", false
	}
	return p, true
}

func TestDocs_SamplesParse(t *testing.T) {
	for _, b := range blocks(t) {
		if err := parseSample(t, b); err != nil {
			t.Errorf("%s: %s %s: %v", b.Where(), b.Lang, b.Attr(), err)
		}
	}
}

// parseSample parses a configuration block with the loader of what it is.
// A properties block without an attribute is raftns's own configuration,
// also started in cmd/raftns.
func parseSample(t *testing.T, b docsamples.Block) error {
	switch b.Lang {
	case "properties":
		return parseProperties(b.Text)
	case "yaml":
		if b.Attr() == "acl" {
			return loadFromFile(t, b.Text, func(path string) error { _, err := acl.LoadAccounts(path); return err })
		}
		var v any
		return yaml.Unmarshal([]byte(b.Text), &v)
	case "json":
		if b.Attr() == "peers.json" {
			return loadFromFile(t, b.Text, func(path string) error { _, err := raft.ReadConfigJSON(path); return err })
		}
		if !json.Valid([]byte(b.Text)) {
			return fmt.Errorf("not valid JSON")
		}
	case "ini":
		_, err := unit.DeserializeOptions(strings.NewReader(b.Text))
		return err
	}
	return nil
}

func loadFromFile(t *testing.T, text string, load func(string) error) error {
	path := filepath.Join(t.TempDir(), "sample")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return load(path)
}

// parseProperties reads Java properties as the reference and raftns do,
// and refuses what a reader would misread: Java properties have no
// end-of-line comment, so "key=value  # note" sets "value  # note".
func parseProperties(text string) error {
	props, err := body.ParseProperties([]byte(text))
	if err != nil {
		return err
	}
	for k, v := range props {
		if strings.Contains(v, " #") {
			return fmt.Errorf("%s=%q: a '#' after a value is part of the value, not a comment", k, v)
		}
	}
	return nil
}

// TestDeploy_EverySampleParses reads every file under deploy/ with the
// parser of its kind: YAML (every document), JSON, XML, Java properties
// (.properties, .conf), systemd units and shell scripts. Go files, the Dockerfile (built
// by cmd/raftns's tests) and Helm templates (rendered by deploy's tests)
// are checked elsewhere; a file of any other kind fails, so a new sample
// gets a parser here.
func TestDeploy_EverySampleParses(t *testing.T) {
	n := 0
	err := filepath.WalkDir(filepath.Join(root, "deploy"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "templates" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") || d.Name() == "Dockerfile" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if err := parseDeployFile(path, data); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("walking deploy/: %v (%d samples)", err, n)
	}
}

func parseDeployFile(path string, data []byte) error {
	switch filepath.Ext(path) {
	case ".yaml", ".yml":
		dec := yamlv3.NewDecoder(bytes.NewReader(data))
		for {
			var v any
			if err := dec.Decode(&v); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	case ".json":
		if !json.Valid(data) {
			return fmt.Errorf("not valid JSON")
		}
		return nil
	case ".xml":
		dec := xml.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := dec.Token(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	case ".properties", ".conf":
		return parseProperties(string(data))
	case ".service":
		_, err := unit.DeserializeOptions(bytes.NewReader(data))
		return err
	case ".sh":
		_, err := syntax.NewParser().Parse(bytes.NewReader(data), path)
		return err
	}
	return fmt.Errorf("no parser for this kind of sample; add one to parseDeployFile")
}

// TestDeploy_SystemdUnitParses reads every unit file under deploy/ with
// systemd's unit-file syntax; its command line is checked in cmd/raftns.
func TestDeploy_SystemdUnitParses(t *testing.T) {
	units, err := filepath.Glob(filepath.Join(root, "deploy", "*", "*.service"))
	if err != nil || len(units) == 0 {
		t.Fatalf("no unit under deploy/: %v", err)
	}
	for _, u := range units {
		f, err := os.Open(u)
		if err != nil {
			t.Fatal(err)
		}
		opts, err := unit.DeserializeOptions(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		exec := 0
		for _, o := range opts {
			if o.Section == "Service" && o.Name == "ExecStart" {
				exec++
			}
		}
		if exec != 1 {
			t.Errorf("%s: %d ExecStart lines, want 1", u, exec)
		}
	}
}

// TestDocs_LinksResolve checks every relative link of README.md and docs/:
// the file exists and, for a Markdown file, so does the heading it names.
func TestDocs_LinksResolve(t *testing.T) {
	files, err := docsamples.MarkdownFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	var links []docsamples.Link
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		l, a := docsamples.Links(f, src)
		links, anchors[f] = append(links, l...), a
	}
	for _, l := range links {
		if strings.Contains(l.Dest, "://") || strings.HasPrefix(l.Dest, "mailto:") {
			continue
		}
		path, frag, _ := strings.Cut(l.Dest, "#")
		target := l.File
		if path != "" {
			target = filepath.ToSlash(filepath.Join(filepath.Dir(l.File), path))
			if _, err := os.Stat(filepath.Join(root, target)); err != nil {
				t.Errorf("%s: %v", l.Where(), err)
				continue
			}
		}
		if frag == "" || !strings.HasSuffix(target, ".md") {
			continue
		}
		a, ok := anchors[target]
		if !ok {
			src, err := os.ReadFile(filepath.Join(root, target))
			if err != nil {
				t.Fatal(err)
			}
			_, a = docsamples.Links(target, src)
			anchors[target] = a
		}
		if !a[frag] {
			t.Errorf("%s: no heading #%s in %s", l.Where(), frag, target)
		}
	}
}
