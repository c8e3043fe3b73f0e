package httpapi

import (
	"mime"
	"net"
	"net/http"
	"strings"
)

// frontDoor is every admin request's first stop: it tells the connection
// guard whom the request serves, refuses cross-origin browser requests that
// would change something, and, when reads need the token, refuses reads of
// the state without it.
func (s *Server) frontDoor(w http.ResponseWriter, r *http.Request) {
	token := s.hasToken(r)
	if s.conns != nil {
		s.conns.classify(r, token || isProbe(r))
	}
	if !safeMethod(r.Method) {
		if reason := s.crossOrigin(r); reason != "" {
			s.refusedCrossOrigin.Add(1)
			s.logger.Warn("cross-origin admin request refused", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr, "reason", reason)
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "cross-origin request refused: " + reason})
			return
		}
	}
	if s.opts.ReadsNeedToken && safeMethod(r.Method) && !openRead(r.URL.Path) && !token {
		s.unauthorized.Add(1)
		w.Header().Set("WWW-Authenticate", `Bearer realm="raftns"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "with --acl-mode all, reads of the state on the admin port " +
			"need the admin token: Authorization: Bearer <token> (or start the member with --http-public-reads)"})
		return
	}
	s.mux.ServeHTTP(w, r)
}

// hasToken reports a request that carries the configured admin token.
func (s *Server) hasToken(r *http.Request) bool {
	return s.opts.Token != "" && bearerMatches(r.Header.Get("Authorization"), s.opts.Token)
}

// isProbe reports a health probe, which the connection guard never makes
// wait for anonymous load.
func isProbe(r *http.Request) bool {
	return r.URL.Path == "/livez" || r.URL.Path == "/readyz"
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// openRead reports a read that stays open when reads need the token: the
// probes, the metrics, the member's status and peers (no names or values
// of the state) and the RocketMQ address service clients find members by.
func openRead(path string) bool {
	switch path {
	case "/livez", "/readyz", "/metrics", "/v1/status", "/v1/peers":
		return true
	}
	return strings.HasPrefix(path, "/rocketmq/")
}

// crossOrigin says why a state-changing request looks like one a browser
// sent for a page of another origin, or "" when it does not: the browser's
// own Sec-Fetch-Site or Origin (net/http's CrossOriginProtection); a body
// type a page may send without asking the server first (text/plain, a
// form); and, on a member without a token, a Host that is a name rather
// than an address (a page of a rebound DNS name reaching loopback).
func (s *Server) crossOrigin(r *http.Request) string {
	if err := s.origins.Check(r); err != nil {
		return err.Error()
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt == "text/plain" || mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data" {
			return "content type " + ct + " is not accepted by the admin API (send application/json, or application/octet-stream for a snapshot)"
		}
	}
	if s.opts.Token == "" && !addressHost(r.Host) {
		return "host " + r.Host + " is a name: without an admin token, changes are accepted only for an address such as 127.0.0.1:9856 or localhost"
	}
	return ""
}

// addressHost reports a Host header that names an IP address or localhost.
func addressHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	return host == "localhost" || net.ParseIP(host) != nil
}
