package main

import (
	"net/url"

	"github.com/spf13/cobra"
)

// addConsistentFlag adds --consistent to a read command.
func addConsistentFlag(cmd *cobra.Command, v *bool) {
	cmd.Flags().BoolVar(v, "consistent", false,
		"leader-checked read through the admin API at --addr: reflects every write acknowledged before it (default: the local read of the member at --namesrv, which may lag)")
}

// consistentGet reads path from the admin API at --addr with the leader
// check (?consistent=true) and decodes the answer into out.
func (a *app) consistentGet(cmd *cobra.Command, path string, out any) error {
	return a.adminGet(cmd, path, url.Values{"consistent": {"true"}}, out)
}

func kvPath(ns, key string) string { return "/v1/kv/" + url.PathEscape(ns) + "/" + url.PathEscape(key) }

func routePath(topic string) string { return "/v1/routes/" + url.PathEscape(topic) }
