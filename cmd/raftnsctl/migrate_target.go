package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/body"
)

// raftnsConfigKey is a key of a RaftNS member's GET_NAMESRV_CONFIG answer
// that a reference NameServer never sends: the reference answers with the
// fields of its NamesrvConfig and NettyServerConfig only, and a member
// always reports the cluster address it replicates through.
const raftnsConfigKey = "clusterAddr"

// requireTo returns the addresses of --to, which has no default: on a host
// of an old NameServer the usual local address is the old server.
func requireTo(cmd *cobra.Command, to string) ([]string, error) {
	if to == "" {
		return nil, usagef("%s: --to is required: the client addresses of the RaftNS members, HOST:PORT;HOST:PORT...",
			commandName(cmd))
	}
	return addrList(cmd, "to", to)
}

// bindToReference adds --to-reference to verify and import.
func (f *migrateFlags) bindToReference(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.toReference, "to-reference", false,
		"--to names reference NameServers, not RaftNS members (a rollback to the old fleet)")
}

// checkRaftNSMembers refuses a --to address that is not a RaftNS member,
// so that a reference NameServer given by mistake is never written to or
// taken as the migration's target; --to-reference turns the check off.
func (f *migrateFlags) checkRaftNSMembers(ctx context.Context, cmd *cobra.Command, c *nsclient.Client, targets []string) error {
	if f.toReference {
		return nil
	}
	for _, addr := range targets {
		text, err := c.GetNamesrvConfig(ctx, addr)
		if err != nil {
			return fmt.Errorf("%s: --to %s: cannot tell whether it is a RaftNS member: %w", commandName(cmd), addr, err)
		}
		props, err := body.ParseProperties(text)
		if err != nil {
			return fmt.Errorf("%s: --to %s: unreadable configuration: %w", commandName(cmd), addr, err)
		}
		if _, ok := props[raftnsConfigKey]; !ok {
			return fmt.Errorf("%w: %s: --to %s is not a RaftNS member (its configuration has no %s: a reference NameServer?); "+
				"--to takes the client addresses of the RaftNS members, --from the old name servers "+
				"(to write to or check old name servers in a rollback, add --to-reference)",
				errNotRaftNS, commandName(cmd), addr, raftnsConfigKey)
		}
	}
	return nil
}
