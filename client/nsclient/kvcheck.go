package nsclient

import (
	"errors"
	"fmt"
	"math"

	"github.com/raftns/raftns/protocol/remoting"
)

// ErrEmptyKVName means a PUT_KV_CONFIG with an empty namespace or key,
// which RaftNS refuses (the reference's "namespace or key is null").
var ErrEmptyKVName = errors.New("empty namespace or key, which RaftNS refuses")

// CheckPutKV reports whether PutKV of namespace, key and value can be
// sent and stored: nil, or why not. It builds the request as PutKV does
// (signed when the client signs, with the largest request id) and encodes
// it, so a key or value too large for one request header
// (remoting.MaxHeaderLength, after JSON escaping) is found without sending
// anything.
func (c *Client) CheckPutKV(namespace, key, value string) error {
	if namespace == "" || key == "" {
		return ErrEmptyKVName
	}
	req := c.Credentials.sign(c.request(remoting.PutKVConfig, map[string]string{"namespace": namespace, "key": key, "value": value}, nil))
	req.Opaque = math.MaxInt32
	if _, err := remoting.EncodeFrame(req); err != nil {
		return fmt.Errorf("the request would not fit one frame: %w", err)
	}
	return nil
}
