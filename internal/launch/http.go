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
	return m.send(ctx, httpClient, http.MethodGet, path)
}

// Do sends a request without a body, such as POST /v1/leader/transfer, to
// the member's admin HTTP address, bounded by ctx alone: leadership
// transfers and membership changes take seconds.
func (m *Member) Do(ctx context.Context, method, path string) (*http.Response, error) {
	return m.send(ctx, http.DefaultClient, method, path)
}

func (m *Member) send(ctx context.Context, c *http.Client, method, path string) (*http.Response, error) {
	if m.HTTPAddr == "" {
		return nil, fmt.Errorf("member %s: %w", m.name(), ErrNoHTTPAddr)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+m.HTTPAddr+path, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Status reads GET /v1/status.
func (m *Member) Status(ctx context.Context) (adminapi.Status, error) {
	var st adminapi.Status
	return st, m.getJSON(ctx, "/v1/status", &st)
}

// getJSON decodes the answer of GET path into v; any answer but 200 is an
// error.
func (m *Member) getJSON(ctx context.Context, path string, v any) error {
	resp, err := m.Get(ctx, path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("member %s: %s answered %s", m.name(), path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("member %s: decode %s: %w", m.name(), path, err)
	}
	return nil
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

// Settled reports whether the member's cluster has finished the writes a
// new cluster's leader makes after it is ready: the member serves the
// cluster's run-time settings, and the cluster recorded the member's
// storage identity. A build without either reports neither, and counts as
// settled. A scenario that counts log entries waits for this first.
func (m *Member) Settled(ctx context.Context) (bool, error) {
	st, err := m.Status(ctx)
	if err != nil {
		return false, nil
	}
	for _, set := range st.Settings {
		if set.Kind == adminapi.SettingClusterWide && !set.FromCluster {
			return false, nil
		}
	}
	if st.StorageID == "" {
		return true, nil
	}
	var peers []adminapi.PeerStatus
	if m.getJSON(ctx, "/v1/peers", &peers) != nil {
		return false, nil
	}
	for _, p := range peers {
		if p.ID == st.ID {
			return p.RecordedStorageID == st.StorageID, nil
		}
	}
	return false, nil
}

// WaitSettled waits until the member is ready and Settled, the process
// exits (ErrExited), ctx ends or timeout passes (ErrTimeout).
func (m *Member) WaitSettled(ctx context.Context, timeout time.Duration) error {
	if err := m.WaitReady(ctx, timeout); err != nil {
		return err
	}
	return Poll(ctx, timeout, readyPoll, "member "+m.name()+" settled", func() (bool, error) {
		if m.Exited() {
			return false, fmt.Errorf("%w before it settled: member %s%s", ErrExited, m.name(), m.logHint())
		}
		return m.Settled(ctx)
	})
}
