package main

import (
	"context"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"
)

// adminRequest sends one request to the admin API of the member at --addr
// and decodes its JSON answer into out. With -o json it prints the answer
// unchanged and reports printed, so that the caller prints nothing more.
func (a *app) adminRequest(cmd *cobra.Command, method, path string, query url.Values, in, out any) (printed bool, err error) {
	err = a.withAdmin(cmd, func(ctx context.Context, c *adminClient) error {
		raw, err := c.call(ctx, method, path, query, in, out)
		if err != nil || !a.json() {
			return err
		}
		printed = true
		return printRaw(a.stdout, raw)
	})
	return printed, err
}

// withAdmin runs f with a client for the admin API at --addr and the
// command's deadline.
func (a *app) withAdmin(cmd *cobra.Command, f func(ctx context.Context, c *adminClient) error) error {
	c, err := a.adminClient()
	if err != nil {
		return err
	}
	ctx, cancel := a.context(cmd)
	defer cancel()
	return f(ctx, c)
}

// adminGet is a GET on the member's admin API decoded into out, never
// printed as it came (whatever -o says).
func (a *app) adminGet(cmd *cobra.Command, path string, query url.Values, out any) error {
	return a.withAdmin(cmd, func(ctx context.Context, c *adminClient) error {
		_, err := c.call(ctx, http.MethodGet, path, query, nil, out)
		return err
	})
}
