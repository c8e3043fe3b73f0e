package launch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMember_StatusRejectsBadAnswers(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"not 200", func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusInternalServerError) }, "answered 500"},
		{"not JSON", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("<html>")) }, "decode /v1/status"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			m := &Member{ID: "n1", HTTPAddr: strings.TrimPrefix(srv.URL, "http://")}
			if _, err := m.Status(context.Background()); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Status = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
