package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// capturedDir holds the golden frames recorded by test/interop/capture.sh.
var capturedDir = filepath.Join("..", "..", "..", "testdata", "frames", "captured")

// manifestRow is one line of MANIFEST.tsv.
type manifestRow struct {
	file, kind                                        string
	reqCode, respCode, flag, serialize, version, size int
	sha256                                            string
}

func readManifest(t *testing.T) []manifestRow {
	t.Helper()
	f, err := os.Open(filepath.Join(capturedDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("open manifest: %v", err)
	}
	defer f.Close()
	var rows []manifestRow
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); line++ {
		c := strings.Split(sc.Text(), "\t")
		if line == 0 {
			continue
		}
		if len(c) != 12 {
			t.Fatalf("manifest line %d has %d columns", line+1, len(c))
		}
		n := func(i int) int {
			v, err := strconv.Atoi(c[i])
			if err != nil {
				t.Fatalf("manifest line %d column %d: %v", line+1, i+1, err)
			}
			return v
		}
		rows = append(rows, manifestRow{file: c[0], kind: c[3], reqCode: n(4), respCode: n(5), flag: n(7),
			serialize: n(8), version: n(9), size: n(10), sha256: c[11]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestCapturedFrames_MatchManifest(t *testing.T) {
	rows := readManifest(t)
	if len(rows) < 30 {
		t.Fatalf("manifest lists %d frames, want the whole capture (30 or more)", len(rows))
	}
	for _, r := range rows {
		t.Run(r.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(capturedDir, r.file))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if len(b) != r.size || hex.EncodeToString(sum[:]) != r.sha256 {
				t.Fatalf("file is %d bytes with sha256 %x, manifest says %d bytes %s", len(b), sum, r.size, r.sha256)
			}
			fr, err := readFrame(strings.NewReader(string(b)))
			if err != nil || len(fr) != len(b) {
				t.Fatalf("not exactly one whole frame: %d of %d bytes, err %v", len(fr), len(b), err)
			}
			h, err := parseHeader(b)
			if err != nil {
				t.Fatal(err)
			}
			wantCode := r.reqCode
			if r.kind == "resp" {
				wantCode = r.respCode
			}
			if h.Code != wantCode || h.Flag != r.flag || h.Serialize != r.serialize || h.Version != r.version {
				t.Fatalf("header %+v, manifest code %d flag %d serialize %d version %d", h, wantCode, r.flag, r.serialize, r.version)
			}
			if h.kind() != r.kind {
				t.Fatalf("flag %d makes it a %s, manifest says %s", h.Flag, h.kind(), r.kind)
			}
		})
	}
}
