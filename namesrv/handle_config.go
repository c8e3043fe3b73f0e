package namesrv

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// updateNamesrvConfig is UPDATE_NAMESRV_CONFIG (318).
func (s *Server) updateNamesrvConfig(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	return s.updateSettings(ctx, req, s.cfg.Settings, state.SettingsNamesrv, "name server")
}

// updateSettings answers a settings update (UPDATE_NAMESRV_CONFIG,
// UPDATE_CONTROLLER_CONFIG) of scope. Once the cluster version allows it,
// the update is the cluster's, applied by every member in log order
// (shared_settings.go); until then it changes this member only, like the
// reference, and mqadmin sends it to every member it knows. what names
// the settings in the log.
func (s *Server) updateSettings(ctx context.Context, req *remoting.Command, settings *Settings, scope, what string) (*remoting.Command, error) {
	if len(req.Body) == 0 {
		return success(req), nil
	}
	update, err := body.ParseProperties(req.Body)
	if err != nil {
		return nil, badRequest("string2Properties error")
	}
	if key, black := settings.blackListed(update); black {
		s.logger.Warn("refused "+what+" config update", "key", key)
		s.auditConfig(ctx, what, update, "refused: "+key+" is in the black list")
		return nil, refused(remoting.NoPermission, "Can not update config in black list.")
	}
	if s.sharedSettings() {
		return s.updateClusterSettings(ctx, req, settings, scope, what, update)
	}
	if err := settings.Update(update); err != nil {
		s.auditConfig(ctx, what, update, "failed: "+err.Error())
		return nil, fmt.Errorf("persist config: %w", err)
	}
	s.logger.Info(what+" config updated", "keys", len(update))
	s.auditConfig(ctx, what, update, state.OutcomeApplied)
	return success(req), nil
}

// getNamesrvConfig is GET_NAMESRV_CONFIG (319): key=value lines, sorted.
func (s *Server) getNamesrvConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	resp := success(req)
	resp.Body = body.FormatProperties(s.cfg.Settings.Properties())
	return resp, nil
}
