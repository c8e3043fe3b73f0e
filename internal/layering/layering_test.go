package layering

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/raftns/raftns"

// layers ranks every package of the module, by the longest matching path
// prefix: a package may import only packages of a higher rank (further
// down the list). docs/contributors/architecture.md draws the same table; a new package
// whose path matches no row fails the test until it is given a place.
var layers = []struct {
	prefix string
	rank   int
}{
	{"cmd/", 0}, {"bench/", 0}, {"test/", 0}, {"docs/", 0},
	{"deploy", 5},
	{"bench/rawserve", 5},
	{"httpapi", 10},
	{"namesrv/production", 15},
	{"namesrv", 20},
	{"cluster/controller", 30}, {"client/nscompare", 30},
	{"cluster/clustertest", 35},
	{"cluster", 40}, {"client/nsclient", 40},
	{"cluster/liveness", 50}, {"events", 50}, {"transport", 50}, {"protocol/remoting", 50}, {"protocol/body", 50},
	{"transport/lane", 60}, {"protocol/", 60},
	{"fsm", 70}, {"fsm/state", 75},
	{"snapshots", 80},
	{"internal/launch", 90},
	{"internal/", 95},
	{"internal/adminapi", 96}, {"internal/feature", 96}, {"internal/poll", 96},
	{"internal/buildinfo", 97}, {"transport/tlstest", 97},
}

// rank returns the rank of a module-relative package path, or -1.
func rank(rel string) int {
	best, r := -1, -1
	for _, l := range layers {
		match := rel == l.prefix || strings.HasPrefix(rel, l.prefix) &&
			(strings.HasSuffix(l.prefix, "/") || rel[len(l.prefix)] == '/')
		if match && len(l.prefix) > best {
			best, r = len(l.prefix), l.rank
		}
	}
	return r
}

// pkg is what go list says of one package.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// modulePackages lists the module's packages with their imports, tests'
// imports included.
func modulePackages(t *testing.T, root string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

func top(rel string) string { return strings.Split(rel, "/")[0] }

// TestImportsPointDown: every import between the module's packages, tests'
// imports included, goes to a higher rank; and the top-level folders,
// linked by those imports, form no cycle.
func TestImportsPointDown(t *testing.T) {
	folders := map[string]map[string]bool{}
	edges := 0
	for _, p := range modulePackages(t, moduleRoot(t)) {
		from, _ := rel(p.ImportPath)
		rf := rank(from)
		if rf < 0 {
			t.Errorf("%s is in no layer: give it a row in layers and in docs/contributors/architecture.md", from)
			continue
		}
		for _, imp := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
			to, ok := rel(imp)
			if !ok || to == from {
				continue
			}
			edges++
			if rt := rank(to); rt <= rf {
				t.Errorf("%s (rank %d) imports %s (rank %d): imports must point down", from, rf, to, rt)
			}
			if top(from) != top(to) {
				if folders[top(from)] == nil {
					folders[top(from)] = map[string]bool{}
				}
				folders[top(from)][top(to)] = true
			}
		}
	}
	if edges == 0 {
		t.Fatal("go list found no imports between the module's packages")
	}
	if cycle := findCycle(folders); cycle != nil {
		t.Errorf("top-level folders import each other in a cycle: %s", strings.Join(cycle, " → "))
	}
}

// findCycle returns a cycle of g, or nil.
func findCycle(g map[string]map[string]bool) []string {
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(n string) []string
	visit = func(n string) []string {
		state[n] = open
		stack = append(stack, n)
		for m := range g[n] {
			switch state[m] {
			case open:
				i := slices.Index(stack, m)
				return append(slices.Clone(stack[i:]), m)
			case unseen:
				if c := visit(m); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[n] = done
		return nil
	}
	for n := range g {
		if state[n] == unseen {
			if c := visit(n); c != nil {
				return c
			}
		}
	}
	return nil
}

func TestFindCycle(t *testing.T) {
	if c := findCycle(map[string]map[string]bool{"a": {"b": true}, "b": {"c": true}}); c != nil {
		t.Fatalf("acyclic graph: got cycle %v", c)
	}
	if c := findCycle(map[string]map[string]bool{"a": {"b": true}, "b": {"a": true}}); len(c) != 3 {
		t.Fatalf("a ⇄ b: got %v", c)
	}
}

// TestNoFolderAboveAQuarter: no top-level folder holds more than 25 % of
// the non-test Go lines (testdata and hidden folders aside).
func TestNoFolderAboveAQuarter(t *testing.T) {
	root := moduleRoot(t)
	lines := map[string]int{}
	total := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		n, err := countLines(path)
		r, _ := filepath.Rel(root, path)
		lines[top(filepath.ToSlash(r))] += n
		total += n
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for folder, n := range lines {
		t.Logf("%-10s %6d lines %5.1f %%", folder, n, 100*float64(n)/float64(total))
		if 4*n > total {
			t.Errorf("%s holds %d of %d non-test lines, more than 25 %%", folder, n, total)
		}
	}
}

func countLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		n++
	}
	return n, sc.Err()
}

// TestCmdHoldsOnlyTheProducts: cmd/ holds the server and the admin CLI;
// load generators and other tools live elsewhere (bench/).
func TestCmdHoldsOnlyTheProducts(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(moduleRoot(t), "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.IsDir() {
			got = append(got, e.Name())
		}
	}
	if want := []string{"raftns", "raftnsctl"}; !slices.Equal(got, want) {
		t.Fatalf("cmd/ holds %v, want %v", got, want)
	}
}
