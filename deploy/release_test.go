package deploy

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestReleaseBuildsArchivesWithChecksums runs `make release` into a
// temporary directory and checks each archive: the two binaries for its
// platform, static, stamped with the version; LICENSE, README, CHANGELOG
// and the sample configuration; and SHA256SUMS naming each archive's
// digest.
func TestReleaseBuildsArchivesWithChecksums(t *testing.T) {
	dist := t.TempDir()
	const version = "v9.9.9"
	out, err := exec.Command("make", "-C", "..", "release", "VERSION="+version, "DIST="+dist).CombinedOutput()
	if err != nil {
		t.Fatalf("make release: %v\n%s", err, out)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	for _, arch := range []string{"amd64", "arm64"} {
		name := "raftns-" + version + "-linux-" + arch
		data, err := os.ReadFile(filepath.Join(dist, name+".tar.gz"))
		if err != nil {
			t.Fatal(err)
		}
		digest := sha256.Sum256(data)
		if !strings.Contains(string(sums), hex.EncodeToString(digest[:])+"  "+name+".tar.gz\n") {
			t.Errorf("SHA256SUMS does not hold %s's digest:\n%s", name, sums)
		}
		files := untar(t, data)
		var names []string
		for n := range files {
			names = append(names, n)
		}
		slices.Sort(names)
		want := []string{"CHANGELOG.md", "LICENSE", "README.md", "config/raftns.properties", "config/raftns.service", "raftns", "raftnsctl"}
		for i := range want {
			want[i] = name + "/" + want[i]
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s holds %v, want %v", name, names, want)
		}
		for _, bin := range []string{"raftns", "raftnsctl"} {
			path := filepath.Join(t.TempDir(), bin)
			if err := os.WriteFile(path, files[name+"/"+bin], 0o755); err != nil {
				t.Fatal(err)
			}
			checkELF(t, path, arch)
			if arch == runtime.GOARCH && bin == "raftns" {
				v, err := exec.Command(path, "--version").Output()
				if err != nil || !strings.Contains(string(v), version) {
					t.Errorf("%s --version = %q (%v), want it to name %s", name, v, err, version)
				}
			}
		}
	}
}

// untar reads every regular file of a .tar.gz.
func untar(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if files[h.Name], err = io.ReadAll(tr); err != nil {
			t.Fatal(err)
		}
	}
}

// checkELF checks that path is a static executable for arch.
func checkELF(t *testing.T, path, arch string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[arch]
	if f.Machine != machine {
		t.Errorf("%s is for %v, want %v", path, f.Machine, machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s is dynamically linked", path)
		}
	}
}
