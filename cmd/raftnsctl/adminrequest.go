package main

import (
	"net/url"

	"github.com/spf13/cobra"
)

// adminRequest sends one request to the admin API of the member at --addr
// and decodes its JSON answer into out. With -o json it prints the answer
// unchanged and reports printed, so that the caller prints nothing more.
func (a *app) adminRequest(cmd *cobra.Command, method, path string, query url.Values, in, out any) (printed bool, err error) {
	c, err := a.adminClient()
	if err != nil {
		return false, err
	}
	ctx, cancel := a.context(cmd)
	defer cancel()
	raw, err := c.call(ctx, method, path, query, in, out)
	if err != nil {
		return false, err
	}
	if a.json() {
		return true, printRaw(a.stdout, raw)
	}
	return false, nil
}
