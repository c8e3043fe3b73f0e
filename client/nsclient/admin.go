package nsclient

import (
	"context"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// GetKVList sends GET_KVLIST_BY_NAMESPACE and returns the namespace's keys
// and values; a namespace the name server does not have is a
// *ResponseError with code QueryNotFound.
func (c *Client) GetKVList(ctx context.Context, addr, namespace string) (map[string]string, error) {
	return invokeDecode(ctx, c, addr, c.request(remoting.GetKVListByNamespace, map[string]string{"namespace": namespace}, nil), body.DecodeKVTable)
}

// GetNamesrvConfig sends GET_NAMESRV_CONFIG and returns the answer's body:
// the name server's settings as Java properties text.
func (c *Client) GetNamesrvConfig(ctx context.Context, addr string) ([]byte, error) {
	resp, err := c.Invoke(ctx, addr, c.request(remoting.GetNamesrvConfig, nil, nil))
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// StoredDataVersion sends QUERY_DATA_VERSION with an empty DataVersion and
// returns the name server's copy of the broker's DataVersion, nil when it
// has none. Name servers (the reference and RaftNS) count the request as a
// heartbeat of that broker.
func (c *Client) StoredDataVersion(ctx context.Context, addr, cluster, name, brokerAddr string, id int64) (*state.DataVersion, error) {
	_, dv, err := c.QueryDataVersion(ctx, addr, cluster, name, brokerAddr, id, state.DataVersion{})
	return dv, err
}
