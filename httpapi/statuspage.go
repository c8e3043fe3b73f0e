package httpapi

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/events"
)

//go:embed statuspage.html
var statusPageFiles embed.FS

var statusPageTemplate = template.Must(template.New("statuspage.html").Funcs(template.FuncMap{
	"eventTime": func(e events.Event) string { return e.Time.UTC().Format("15:04:05") },
	"yesno": func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	},
}).ParseFS(statusPageFiles, "statuspage.html"))

// statusPage renders the operator's status page at "/".
type statusPage struct {
	node *cluster.Node
	ring *events.Ring
	// watching says the page may follow GET /v1/watch's stream.
	watching func() bool
}

// EnableStatusPage serves the status page at "/" (the whole page, or with
// ?part=main only its content, which the page's script fetches to refresh),
// this member's recent events at /v1/events and, on the leader, broker
// liveness at /v1/brokers.
func (s *Server) EnableStatusPage(ring *events.Ring) {
	p := &statusPage{node: s.node, ring: ring, watching: func() bool { return s.watch != nil }}
	s.mux.HandleFunc("GET /{$}", p.serve)
	s.mux.HandleFunc("GET /v1/events", p.events)
	s.mux.HandleFunc("GET /v1/brokers", p.brokers)
}

func (p *statusPage) serve(w http.ResponseWriter, r *http.Request) {
	name := "page"
	if r.URL.Query().Get("part") == "main" {
		name = "main"
	}
	var buf bytes.Buffer
	if err := statusPageTemplate.ExecuteTemplate(&buf, name, p.gather(r.Context())); err != nil {
		http.Error(w, "status page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// Everything the page uses is inline; nothing may be loaded from elsewhere.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(buf.Bytes())
}

func (p *statusPage) events(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, p.ring.Recent(0))
}

// brokers answers the leader's broker liveness; other members answer 503
// with the leader's identity so a caller can ask it instead.
func (p *statusPage) brokers(w http.ResponseWriter, _ *http.Request) {
	list, ok := p.node.BrokerLiveness()
	if !ok {
		st := p.node.Status()
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{
			"error": "broker liveness is tracked by the leader in office", "leaderId": st.LeaderID, "leaderHttpAddr": st.LeaderHTTPAddr})
		return
	}
	writeJSON(w, http.StatusOK, list)
}
