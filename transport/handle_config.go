package transport

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/magiconair/properties"
	"github.com/raftns/raftns/transport/remoting"
)

// updateNamesrvConfig is UPDATE_NAMESRV_CONFIG (318). It changes this member
// only, like the reference; mqadmin sends it to every name server.
func (s *Server) updateNamesrvConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	if len(req.Body) == 0 {
		return success(req), nil
	}
	update, err := ParseProperties(req.Body)
	if err != nil {
		return nil, badRequest("string2Properties error")
	}
	if key, black := s.cfg.Settings.blackListed(update); black {
		s.logger.Warn("refused name server config update", "key", key)
		return nil, refused(remoting.NoPermission, "Can not update config in black list.")
	}
	if err := s.cfg.Settings.Update(update); err != nil {
		return nil, fmt.Errorf("persist config: %w", err)
	}
	s.logger.Info("name server config updated", "keys", len(update))
	return success(req), nil
}

// getNamesrvConfig is GET_NAMESRV_CONFIG (319): key=value lines, sorted.
func (s *Server) getNamesrvConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	resp := success(req)
	resp.Body = FormatProperties(s.cfg.Settings.Properties())
	return resp, nil
}

// ParseProperties reads Java properties text (comments, continuations,
// escapes and ':' or '=' separators included).
func ParseProperties(text []byte) (map[string]string, error) {
	p, err := properties.Load(text, properties.UTF8)
	if err != nil {
		return nil, err
	}
	return p.Map(), nil
}

// FormatProperties writes key=value lines in key order, as 5.x does; nil
// when there is nothing to write.
func FormatProperties(props map[string]string) []byte {
	if len(props) == 0 {
		return nil
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strings.ReplaceAll(props[k], "\n", "\\n"))
		b.WriteByte('\n')
	}
	return b.Bytes()
}
