package namesrv

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

func TestErrorResponse_MapsEveryKindOnce(t *testing.T) {
	r := &remoting.Command{Opaque: 7}
	cases := []struct {
		name   string
		err    error
		code   int32
		remark string
	}{
		{"bad request", badRequest("the custom field <topic> is null"), remoting.SystemError, "the custom field <topic> is null"},
		{"not found", refused(remoting.QueryNotFound, "No config item"), remoting.QueryNotFound, "No config item"},
		{"not leader", fmt.Errorf("x: %w", cluster.ErrNotLeader), remoting.SystemError, "raftns: no leader available"},
		{"no leader", cluster.ErrNoLeader, remoting.SystemError, "raftns: no leader available"},
		{"leader not ready", cluster.ErrLeaderNotReady, remoting.SystemError, "raftns: no leader available"},
		{"timeout", fmt.Errorf("apply: %w", context.DeadlineExceeded), remoting.SystemError, "raftns: write timed out"},
		{"not visible yet", fmt.Errorf("%w (index 9): %w", cluster.ErrNotVisibleYet, context.DeadlineExceeded), remoting.SystemError,
			RemarkNotVisibleYet},
		{"other", errors.New("disk full"), remoting.SystemError, "disk full"},
		{"controller refusal", fmt.Errorf("register: %w", state.RefuseUnknownGroup("b")), remoting.ControllerBrokerNeedToBeRegistered,
			"Broker-set: b hasn't been registered in controller"},
		{"unmapped refusal", &state.Refused{Reason: state.RefusalNone, Remark: "r"}, remoting.SystemError, "r"},
	}
	for _, tc := range cases {
		resp := errorResponse(r, tc.err)
		if resp.Code != tc.code || !strings.HasPrefix(resp.Remark, tc.remark) || resp.Opaque != 7 {
			t.Errorf("%s: answer %d %q, want %d %q…", tc.name, resp.Code, resp.Remark, tc.code, tc.remark)
		}
	}
}

// Every controller refusal has the reference controller's code, never
// SUCCESS.
func TestErrorResponse_EveryControllerRefusalHasACode(t *testing.T) {
	for r := state.RefusalNone + 1; r <= state.RefusalElectFailed; r++ {
		if code := refusalCode(r); code == remoting.SystemError || code == remoting.Success {
			t.Errorf("refusal %d answers %d", r, code)
		}
	}
}

// stuck never reaches a leader: writes wait until their context ends.
type stuck struct{ Cluster }

func (stuck) Apply(ctx context.Context, _ fsm.CommandType, _ any) (any, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// The dispatcher bounds every write by the configured write timeout.
func TestDispatch_WriteTimeoutAppliesToEveryWrite(t *testing.T) {
	ts := startTestServer(t, nil)
	cfg := DefaultConfig()
	cfg.WriteTimeout = 50 * time.Millisecond
	srv := New(cfg, stuck{ts.node})
	ln := listen(t)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	ts2 := &testServer{node: ts.node, srv: srv, client: ts.client, addr: ln.Addr().String()}
	writes := []*remoting.Command{
		req(remoting.PutKVConfig, 479, map[string]string{"namespace": "n", "key": "k", "value": "v"}, nil),
		req(remoting.DeleteKVConfig, 479, map[string]string{"namespace": "n", "key": "k"}, nil),
		req(remoting.DeleteTopicInNameSrv, 479, map[string]string{"topic": "T"}, nil),
		req(remoting.WipeWritePermOfBroker, 479, map[string]string{"brokerName": "b"}, nil),
		req(remoting.UnregisterBroker, 479, map[string]string{"brokerName": "b", "brokerAddr": "a:1", "clusterName": "c", "brokerId": "0"}, nil),
	}
	for _, w := range writes {
		resp := ts2.call(t, w)
		if resp.Code != remoting.SystemError || !strings.Contains(resp.Remark, "write timed out") {
			t.Errorf("code %d: answer %d %q, want a write timeout", w.Code, resp.Code, resp.Remark)
		}
	}
}
