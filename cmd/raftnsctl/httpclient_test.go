package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReadAPIError_CapturedAnswers(t *testing.T) {
	want := map[string]string{
		"400-add-empty-body.json":         `body must be {"id":…,"address":"host:port"} (HTTP 400)`,
		"404-unknown-member.json":         "cluster: unknown member: nope (HTTP 404)",
		"404-mux.txt":                     "404 page not found (HTTP 404)",
		"405-mux.txt":                     "Method Not Allowed (HTTP 405)",
		"500-restore-garbage.json":        "refusing backup: snapshots: truncated snapshot after 7 bytes (HTTP 500)",
		"500-transfer-single-member.json": "cannot find peer (HTTP 500)",
	}
	files, err := filepath.Glob("testdata/admin-errors/*[0-9]-*")
	if err != nil || len(files) != len(want) {
		t.Fatalf("testdata files = %v (err %v), want %d", files, err, len(want))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			status, body := readCapturedAnswer(t, file)
			if got := readAPIError(answer(status, body)).Error(); got != want[filepath.Base(file)] {
				t.Errorf("error = %q, want %q", got, want[filepath.Base(file)])
			}
		})
	}
}

// readCapturedAnswer reads a testdata answer whose name starts with its
// HTTP status.
func readCapturedAnswer(t testing.TB, file string) (int, []byte) {
	t.Helper()
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	status, err := strconv.Atoi(strings.SplitN(filepath.Base(file), "-", 2)[0])
	if err != nil {
		t.Fatalf("%s: name does not start with a status: %v", file, err)
	}
	return status, body
}

func answer(status int, body []byte) *http.Response {
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(string(body)))}
}

func FuzzReadAPIError(f *testing.F) {
	files, _ := filepath.Glob("testdata/admin-errors/*[0-9]-*")
	for _, file := range files {
		status, body := readCapturedAnswer(f, file)
		f.Add(status, body)
	}
	f.Add(502, []byte{})
	f.Add(503, []byte(`{"error":""}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		err := readAPIError(answer(status, body))
		ae, ok := err.(*apiError)
		if !ok || ae.Status != status {
			t.Fatalf("readAPIError = %#v, want an *apiError with status %d", err, status)
		}
		if ae.Message == "" && http.StatusText(status) != "" {
			t.Fatalf("empty message for status %d, body %q", status, body)
		}
		if len(ae.Message) > maxErrorBody*utf8.UTFMax {
			t.Fatalf("message of %d bytes exceeds the read limit", len(ae.Message))
		}
	})
}

func TestParseAdminAddr_Forms(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"127.0.0.1:9856", "http://127.0.0.1:9856", true},
		{"[::1]:9856", "http://[::1]:9856", true},
		{"member-1.example:9856", "http://member-1.example:9856", true},
		{"http://10.0.0.1:9856/", "http://10.0.0.1:9856", true},
		{"https://10.0.0.1:9856/raftns", "https://10.0.0.1:9856/raftns", true},
		{"10.0.0.1", "", false},
		{"ftp://10.0.0.1:21", "", false},
		{"http://", "", false},
		{"", "", false},
		{"::1", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			u, err := parseAdminAddr(tc.in)
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), "want HOST:PORT") {
					t.Fatalf("parseAdminAddr(%q) = %v, %v; want a usage error", tc.in, u, err)
				}
				return
			}
			if err != nil || u.String() != tc.want {
				t.Fatalf("parseAdminAddr(%q) = %v, %v; want %s", tc.in, u, err, tc.want)
			}
		})
	}
}
