package deploy

import (
	"bufio"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDockerfileBuildsStaticBinariesForANonRootUser runs the Dockerfile's
// own go build commands (Docker itself is not needed) and checks that the
// binaries are static, as the empty final image requires, and that the
// final stage runs as a non-root user.
func TestDockerfileBuildsStaticBinariesForANonRootUser(t *testing.T) {
	f, err := os.Open(filepath.Join("docker", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var builds []string
	var stages, user, from string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "FROM "):
			stages += "|" + line
			from, user = line, ""
		case strings.HasPrefix(line, "USER "):
			user = strings.TrimPrefix(line, "USER ")
		case strings.HasPrefix(line, "RUN ") && strings.Contains(line, " go build "):
			builds = append(builds, strings.TrimPrefix(line, "RUN "))
		}
	}
	if strings.Count(stages, "FROM ") < 2 {
		t.Fatalf("want a multi-stage build, got stages %q", stages)
	}
	if from != "FROM scratch" {
		t.Fatalf("final stage is %q, want FROM scratch", from)
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Fatalf("final stage runs as %q, want a non-root numeric user", user)
	}
	if len(builds) != 2 {
		t.Fatalf("want the two go build commands (raftns, raftnsctl), found %d", len(builds))
	}
	out := t.TempDir()
	for _, b := range builds {
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(b, "/out/", out+"/"))
		cmd.Dir = ".."
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", b, err, msg)
		}
	}
	for _, name := range []string{"raftns", "raftnsctl"} {
		assertStatic(t, filepath.Join(out, name))
	}
}

func assertStatic(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Fatalf("%s is dynamically linked (program header %v)", path, p.Type)
		}
	}
}
