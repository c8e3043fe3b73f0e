package cluster

import (
	"context"
	"sync"

	"github.com/raftns/raftns/internal/adminapi"
)

// SetSettingsReporter installs fn, which Status calls for the member's
// settings (adminapi.Status.Settings); members learn each other's through
// the status answer they exchange.
func (n *Node) SetSettingsReporter(fn func() []adminapi.Setting) { n.settings.Store(&fn) }

// ownSettings are the reporter's settings, or none without one.
func (n *Node) ownSettings() []adminapi.Setting {
	if fn := n.settings.Load(); fn != nil {
		return (*fn)()
	}
	return nil
}

// MemberSettings asks every member of the configuration for its settings
// over the cluster port, at once; a member that does not answer has an
// Error, one of a release without settings none.
func (n *Node) MemberSettings(ctx context.Context) ([]adminapi.MemberSettings, error) {
	if n.Removed() {
		return nil, ErrRemoved
	}
	conf, err := currentConfiguration(n.raft)
	if err != nil {
		return nil, err
	}
	out := make([]adminapi.MemberSettings, len(conf.Servers))
	var wg sync.WaitGroup
	for i, s := range conf.Servers {
		out[i].ID = string(s.ID)
		if out[i].ID == n.cfg.ID {
			out[i].Settings = n.ownSettings()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			pctx, cancel := context.WithTimeout(ctx, statusProbeTimeout)
			defer cancel()
			st, err := n.memberStatus(pctx, string(s.Address))
			if err != nil {
				out[i].Error = err.Error()
				return
			}
			out[i].Settings = st.Settings
		}()
	}
	wg.Wait()
	return out, nil
}
