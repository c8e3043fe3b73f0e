package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/raftns/raftns/snapshots"
)

// saveMemberSnapshot saves the real member's state with "snapshot save".
func saveMemberSnapshot(t *testing.T) (string, []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "backup.snap")
	r := memberCtl(t, "snapshot", "save", file).mustSucceed(t)
	if !strings.HasPrefix(r.stdout, "saved "+file+": ") || !strings.Contains(r.stdout, "checksum OK") {
		t.Fatalf("save output = %q, want a verified summary", r.stdout)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return file, data
}

func TestSnapshotSave_WritesAVerifiedFileThatInspectDescribes(t *testing.T) {
	memberCtl(t, "kv", "put", "SNAP_NS", "k1", "v1").mustSucceed(t)
	memberCtl(t, "kv", "put", "SNAP_NS", "k2", "v2").mustSucceed(t)
	file, data := saveMemberSnapshot(t)
	if _, err := os.Stat(file + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("%s.tmp left behind (stat err %v)", file, err)
	}
	sum, err := snapshots.Inspect(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("saved file does not verify: %v", err)
	}
	if sum.Records[9] < 2 || sum.Records[8] < 1 || sum.Records[10] != 1 {
		t.Fatalf("records = %v, want >=2 kv (9), >=1 kv-namespace (8), 1 member (10)", sum.Records)
	}

	r := ctl(t, "snapshot", "inspect", file).mustSucceed(t)
	for _, want := range []string{
		"inspected " + file + ": " + itoa(len(data)) + " bytes, format version 1, checksum OK\n",
		itoa(sum.TotalRecords) + " records, " + itoa(int(sum.PayloadBytes)) + " payload bytes\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, r.stdout)
		}
	}
	// The columns are as wide as the longest record name present (the
	// leader records its storage identity, member-standing, within a second).
	for _, want := range []string{`(?m)^  kv +9 +` + itoa(sum.Records[9]) + `$`, `(?m)^  member +10 +1$`} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("inspect output lacks a row matching %s:\n%s", want, r.stdout)
		}
	}

	var js summaryJSON
	r = ctl(t, "snapshot", "inspect", "-o", "json", file).mustSucceed(t)
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil {
		t.Fatalf("inspect -o json: %v\n%s", err, r.stdout)
	}
	if !js.ChecksumOK || js.Bytes != int64(len(data)) || js.TotalRecords != sum.TotalRecords || js.Version != 1 {
		t.Fatalf("inspect -o json = %+v, want checksum ok, %d bytes, %d records", js, len(data), sum.TotalRecords)
	}
}

// corruptions damage a valid snapshot in the ways the reader must catch.
var corruptions = []struct {
	name    string
	corrupt func([]byte) []byte
	wantErr string
}{
	{name: "flipped byte", corrupt: func(b []byte) []byte { b[len(b)/2] ^= 0xFF; return b },
		wantErr: "snapshots: "},
	{name: "truncated", corrupt: func(b []byte) []byte { return b[:len(b)-5] }, wantErr: "truncated"},
	{name: "bad magic", corrupt: func(b []byte) []byte { b[0] = 'X'; return b }, wantErr: "bad magic"},
	{name: "trailing data", corrupt: func(b []byte) []byte { return append(b, 0) }, wantErr: "data after the end marker"},
	{name: "empty", corrupt: func([]byte) []byte { return nil }, wantErr: "snapshots: "},
}

func TestSnapshotInspect_DamagedFileExitsOne(t *testing.T) {
	_, data := saveMemberSnapshot(t)
	for _, tc := range corruptions {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bad.snap")
			writeFile(t, file, tc.corrupt(bytes.Clone(data)))
			r := ctl(t, "snapshot", "inspect", file).mustFail(t, 1, "snapshot failed verification: "+file)
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr = %q, want %q", r.stderr, tc.wantErr)
			}
			if !strings.Contains(r.stdout, "checksum NOT VERIFIED") || !strings.Contains(r.stdout, "damaged: ") {
				t.Errorf("stdout = %q, want the partial summary marked damaged", r.stdout)
			}
		})
	}
}

func TestSnapshotInspect_MissingFile(t *testing.T) {
	ctl(t, "snapshot", "inspect", filepath.Join(t.TempDir(), "none.snap")).mustFail(t, 1, "no such file")
	ctl(t, "snapshot", "inspect", t.TempDir()).mustFail(t, 1, "is a directory")
}

func TestSnapshotRestore_RefusesDamagedFileWithoutSending(t *testing.T) {
	_, data := saveMemberSnapshot(t)
	f := newFakeAdmin(t, 200, `{"result":"restored"}`)
	for _, tc := range corruptions {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bad.snap")
			writeFile(t, file, tc.corrupt(bytes.Clone(data)))
			r := ctl(t, "--addr", f.addr(), "snapshot", "restore", file).mustFail(t, 1, "nothing sent")
			if !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr = %q, want %q", r.stderr, tc.wantErr)
			}
			if n := len(f.requests()); n != 0 {
				t.Fatalf("fake admin API got %d requests, want none", n)
			}
		})
	}
	ctl(t, "--addr", f.addr(), "snapshot", "restore", filepath.Join(t.TempDir(), "none.snap")).mustFail(t, 1, "no such file")
	if n := len(f.requests()); n != 0 {
		t.Fatalf("fake admin API got %d requests, want none", n)
	}
}

func TestSnapshotRestore_SendsTheVerifiedBytes(t *testing.T) {
	file, data := saveMemberSnapshot(t)
	f := newFakeAdmin(t, 200, `{"result":"restored"}`)
	r := ctl(t, "--addr", f.addr(), "snapshot", "restore", file).mustSucceed(t)
	req := f.only(t)
	if req.Method != "POST" || req.Path != "/v1/snapshot" || req.ContentType != "application/octet-stream" {
		t.Errorf("request = %s %s (%s), want POST /v1/snapshot (application/octet-stream)", req.Method, req.Path, req.ContentType)
	}
	if !bytes.Equal(req.Body, data) {
		t.Errorf("sent %d bytes, want the file's %d bytes unchanged", len(req.Body), len(data))
	}
	if !strings.HasPrefix(r.stdout, "restored "+file+": "+itoa(len(data))+" bytes") {
		t.Errorf("stdout = %q, want a restored summary", r.stdout)
	}
}

func TestSnapshotRestore_ErrorAnswer(t *testing.T) {
	file, _ := saveMemberSnapshot(t)
	f := newFakeAdmin(t, 503, `{"error":"cluster: no leader"}`)
	ctl(t, "--addr", f.addr(), "snapshot", "restore", file).mustFail(t, 1, "raftnsctl: cluster: no leader (HTTP 503)\n")
	f.only(t)
}

func TestSnapshotRestore_RealMemberGoesBackInTime(t *testing.T) {
	memberCtl(t, "kv", "put", "RESTORE_NS", "before", "1").mustSucceed(t)
	file, _ := saveMemberSnapshot(t)
	memberCtl(t, "kv", "put", "RESTORE_NS", "after", "2").mustSucceed(t)

	memberCtl(t, "snapshot", "restore", file).mustSucceed(t)

	// Restore applies on the leader before it answers, and this member is
	// the only one, so its reads see the restored state at once.
	memberCtl(t, "kv", "get", "RESTORE_NS", "after").mustFail(t, 1, "QUERY_NOT_FOUND")
	if r := memberCtl(t, "kv", "get", "RESTORE_NS", "before").mustSucceed(t); r.stdout != "1\n" {
		t.Fatalf("kv get before = %q, want 1", r.stdout)
	}
}

func TestSnapshotSave_RefusesBadDownloadAndKeepsOldFile(t *testing.T) {
	_, data := saveMemberSnapshot(t)
	for _, tc := range corruptions {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAdmin(t, 200, string(tc.corrupt(bytes.Clone(data))))
			file := filepath.Join(t.TempDir(), "backup.snap")
			writeFile(t, file, []byte("previous backup"))
			r := ctl(t, "--addr", f.addr(), "snapshot", "save", file).mustFail(t, 1, "snapshot failed verification")
			if !strings.Contains(r.stderr, file+" left untouched") || !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stderr = %q, want %q and that the file was left untouched", r.stderr, tc.wantErr)
			}
			if got, _ := os.ReadFile(file); string(got) != "previous backup" {
				t.Errorf("%s = %q, want the previous content", file, got)
			}
			if _, err := os.Stat(file + ".tmp"); !os.IsNotExist(err) {
				t.Errorf("%s.tmp left behind (stat err %v)", file, err)
			}
			req := f.only(t)
			if req.Method != "GET" || req.Path != "/v1/snapshot" {
				t.Errorf("request = %s %s, want GET /v1/snapshot", req.Method, req.Path)
			}
		})
	}
}

func TestSnapshotSave_ErrorAnswerWritesNothing(t *testing.T) {
	f := newFakeAdmin(t, 500, `{"error":"snapshot: raft is shutdown"}`)
	file := filepath.Join(t.TempDir(), "backup.snap")
	ctl(t, "--addr", f.addr(), "snapshot", "save", file).mustFail(t, 1, "raftnsctl: snapshot: raft is shutdown (HTTP 500)")
	entries, err := os.ReadDir(filepath.Dir(file))
	if err != nil || len(entries) != 0 {
		t.Fatalf("directory holds %v (err %v), want nothing", entries, err)
	}
}

func TestSnapshotSave_UnwritableTarget(t *testing.T) {
	_, data := saveMemberSnapshot(t)
	f := newFakeAdmin(t, 200, string(data))
	file := filepath.Join(t.TempDir(), "missing-dir", "backup.snap")
	ctl(t, "--addr", f.addr(), "snapshot", "save", file).mustFail(t, 1, "no such file or directory")
}

func TestSnapshotSave_InterruptedMidTransferLeavesNoFile(t *testing.T) {
	_, data := saveMemberSnapshot(t)
	halfSent := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		close(halfSent)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	file := filepath.Join(t.TempDir(), "backup.snap")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-halfSent; cancel() }() // what Ctrl-C does through main's signal context
	var out, errb strings.Builder
	code := run(ctx, []string{"--addr", srv.Listener.Addr().String(), "snapshot", "save", file}, &out, &errb,
		func(string) string { return "" })
	if code != 1 || !strings.Contains(errb.String(), "raftnsctl: interrupted") {
		t.Fatalf("exit code = %d, stderr = %q; want 1 and that the save was interrupted", code, errb.String())
	}
	if entries, _ := os.ReadDir(filepath.Dir(file)); len(entries) != 0 {
		t.Fatalf("directory holds %v, want nothing (no FILE, no FILE.tmp)", entries)
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
