package main

import (
	"fmt"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/spf13/cobra"
)

// versionOutput is "raftnsctl version -o json".
type versionOutput struct {
	Client buildinfo.Info  `json:"client"`
	Member *buildinfo.Info `json:"member,omitempty"`
}

func (a *app) versionCommand() *cobra.Command {
	var clientOnly bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Show the build of raftnsctl and of the member at --addr",
		Long: `version prints raftnsctl's own build (release, module version, commit) and,
unless --client is given, the build of the member at --addr from GET /v1/status.
A member that reports no build runs a release from before versions were
exchanged (` + buildinfo.Baseline + ` or older).`,
		Example: `  raftnsctl version
  raftnsctl version --client
  raftnsctl --addr 10.0.0.3:9856 version -o json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := versionOutput{Client: buildinfo.Get()}
			if !clientOnly {
				var st adminapi.Status
				if err := a.adminGet(cmd, "/v1/status", nil, &st); err != nil {
					return err
				}
				out.Member = &st.Build
			}
			if a.json() {
				return printJSON(a.stdout, out)
			}
			fmt.Fprintln(a.stdout, "Client:", out.Client.String("raftnsctl"))
			if out.Member != nil {
				fmt.Fprintln(a.stdout, "Member:", memberBuildLine(*out.Member))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&clientOnly, "client", false, "print raftnsctl's own build only; contact no member")
	return c
}

// memberBuildLine names a member's build, or says it predates versions.
func memberBuildLine(in buildinfo.Info) string {
	if in.Release == "" {
		return "raftns " + buildinfo.Baseline + " or older (reports no version)"
	}
	return in.String("raftns")
}
