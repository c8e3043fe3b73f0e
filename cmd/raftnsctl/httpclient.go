package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxErrorBody bounds how much of an error answer is read.
const maxErrorBody = 64 << 10

// adminClient calls one member's admin HTTP API.
type adminClient struct {
	base  *url.URL
	hc    *http.Client
	token string
}

// adminClient returns a client for --addr, which is HOST:PORT or an
// http:// or https:// URL.
func (a *app) adminClient() (*adminClient, error) {
	base, err := parseAdminAddr(a.addr)
	if err != nil {
		return nil, err
	}
	token, err := a.adminToken()
	if err != nil {
		return nil, err
	}
	hc, err := a.httpClient()
	if err != nil {
		return nil, err
	}
	// The command's context bounds every call; no client-wide timeout, so a
	// long snapshot transfer is limited by --timeout alone.
	return &adminClient{base: base, hc: hc, token: token}, nil
}

func parseAdminAddr(addr string) (*url.URL, error) {
	raw := addr
	if !strings.Contains(addr, "://") {
		raw = "http://" + addr
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("--addr %q: want HOST:PORT", addr)
	}
	if _, _, err := net.SplitHostPort(u.Host); err != nil {
		return nil, usagef("--addr %q: want HOST:PORT", addr)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, "/")}, nil
}

// addr is the member's address as the user named it, for messages.
func (c *adminClient) addr() string { return c.base.Host }

// payload is a request body of known length.
type payload struct {
	r           io.Reader
	length      int64
	contentType string
}

// jsonPayload encodes v as a JSON request body.
func jsonPayload(v any) (*payload, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &payload{r: bytes.NewReader(b), length: int64(len(b)), contentType: "application/json"}, nil
}

// do sends one request to path (already escaped) and returns the response
// of a 2xx answer; the caller closes its body. Any other answer is an
// *apiError; a failed connection says which address failed. body may be nil.
func (c *adminClient) do(ctx context.Context, method, path string, query url.Values, body *payload) (*http.Response, error) {
	target := c.base.String() + path // path is already escaped
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var r io.Reader
	if body != nil {
		r = body.r
	}
	req, err := http.NewRequestWithContext(ctx, method, target, r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if body != nil {
		req.ContentLength = body.length
		req.Header.Set("Content-Type", body.contentType)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, readAPIError(resp)
	}
	return resp, nil
}

// transportError names the address that failed and says plainly when the
// deadline passed or the user interrupted the command.
func (c *adminClient) transportError(ctx context.Context, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%w at %s: no answer before the --timeout deadline", errAdminUnreachable, c.addr())
	case errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("%w: request to %s abandoned", errInterrupted, c.addr())
	case !isDialError(err) && speaksRemoting(ctx, c.addr()):
		return fmt.Errorf("%w at %s: it answers the RocketMQ protocol, so it is a RocketMQ client port (which --namesrv takes), "+
			"not an admin HTTP port: give --addr the member's admin address (default port 9856)", errAdminUnreachable, c.addr())
	}
	return fmt.Errorf("%w at %s: %v", errAdminUnreachable, c.addr(), err)
}

// readAPIError turns a non-2xx answer into an *apiError carrying the JSON
// "error" and "reason" fields, or the body text when the answer is not that
// JSON.
func readAPIError(resp *http.Response) error {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var doc struct {
		Error  string `json:"error"`
		Reason string `json:"reason"`
	}
	msg := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &doc) == nil && doc.Error != "" {
		msg = doc.Error
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return &apiError{Status: resp.StatusCode, Message: msg, Reason: doc.Reason}
}

// call sends an optional JSON body and decodes a JSON answer into out,
// returning the raw answer for -o json.
func (c *adminClient) call(ctx context.Context, method, path string, query url.Values, in, out any) ([]byte, error) {
	var body *payload
	if in != nil {
		var err error
		if body, err = jsonPayload(in); err != nil {
			return nil, err
		}
	}
	return c.exchange(ctx, method, path, query, body, out)
}

// exchange sends body and decodes the JSON answer into out (when not nil),
// returning the raw answer.
func (c *adminClient) exchange(ctx context.Context, method, path string, query url.Values, body *payload, out any) ([]byte, error) {
	resp, err := c.do(ctx, method, path, query, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return nil, fmt.Errorf("%w from %s to %s %s: %v", errBadAnswer, c.addr(), method, path, err)
		}
	}
	return raw, nil
}

// resultAnswer is the {"result": …} answer of the admin API's operations.
type resultAnswer struct {
	Result   string `json:"result"`
	LeaderID string `json:"leaderId,omitempty"`
}
