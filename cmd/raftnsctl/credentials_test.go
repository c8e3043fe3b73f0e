package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tokenAdmin answers the peers list only with the right bearer token.
func tokenAdmin(t *testing.T, token string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":"this endpoint needs the admin token"}`))
			return
		}
		w.Write([]byte(`[]`))
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

func TestCtl_SendsTheAdminTokenFromFileOrEnvironment(t *testing.T) {
	addr := tokenAdmin(t, "tok-0123456789abcdef")
	file := filepath.Join(t.TempDir(), "admin.token")
	if err := os.WriteFile(file, []byte("tok-0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctl(t, "--addr", addr, "--token-file", file, "peers", "list").mustSucceed(t)
	ctlEnv(t, map[string]string{envToken: "tok-0123456789abcdef"}, "--addr", addr, "peers", "list").mustSucceed(t)
	r := ctl(t, "--addr", addr, "peers", "list")
	if r.code != 1 || !strings.Contains(r.stderr, "admin token") || !strings.Contains(r.stderr, "401") {
		t.Fatalf("without a token: exit %d, %q", r.code, r.stderr)
	}
	if r := ctl(t, "--addr", addr, "--token-file", filepath.Join(t.TempDir(), "missing"), "peers", "list"); r.code != 2 {
		t.Fatalf("missing token file: exit %d, %q", r.code, r.stderr)
	}
}
