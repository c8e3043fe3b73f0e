package launch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
)

// readyPoll is how often WaitReady asks /readyz.
const readyPoll = 20 * time.Millisecond

// httpClient bounds every admin request, so a hung member cannot stall a
// poll past its deadline by more than this.
var httpClient = &http.Client{Timeout: 2 * time.Second}

// Get sends GET path to the member's admin HTTP address.
func (m *Member) Get(ctx context.Context, path string) (*http.Response, error) {
	if m.HTTPAddr == "" {
		return nil, fmt.Errorf("member %s: %w", m.name(), ErrNoHTTPAddr)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+m.HTTPAddr+path, nil)
	if err != nil {
		return nil, err
	}
	return httpClient.Do(req)
}

// Status reads GET /v1/status.
func (m *Member) Status(ctx context.Context) (adminapi.Status, error) {
	var st adminapi.Status
	resp, err := m.Get(ctx, "/v1/status")
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("member %s: /v1/status answered %s", m.name(), resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("member %s: decode /v1/status: %w", m.name(), err)
	}
	return st, nil
}

// Ready asks GET /readyz once; it answers 200 exactly while the member
// serves client reads (the ready field of /v1/status).
func (m *Member) Ready(ctx context.Context) bool {
	resp, err := m.Get(ctx, "/readyz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// WaitReady polls /readyz until it answers 200 (nil), the process exits
// (ErrExited), ctx ends or timeout passes (ErrTimeout).
func (m *Member) WaitReady(ctx context.Context, timeout time.Duration) error {
	return Poll(ctx, timeout, readyPoll, "member "+m.name()+" ready", func() (bool, error) {
		if m.Exited() {
			return false, fmt.Errorf("%w before it was ready: member %s%s", ErrExited, m.name(), m.logHint())
		}
		return m.Ready(ctx), nil
	})
}
