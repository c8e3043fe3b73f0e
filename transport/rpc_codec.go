package transport

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
	"net/rpc"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/internal/feature"
)

// rpcCodec is the gob encoding net/rpc uses on the cluster port, with one
// addition: a method a feature introduced is called as Name@RELEASE
// (feature.Method). The release is stripped before dispatch; when this
// member does not know the method, the answer and a log line name this
// member's release and the one needed, instead of net/rpc's bare "can't
// find method". Plain names, which every release sends, pass unchanged.
type rpcCodec struct {
	rwc    io.ReadWriteCloser
	buf    *bufio.Writer
	dec    *gob.Decoder
	enc    *gob.Encoder
	logger hclog.Logger

	mu     sync.Mutex
	needs  map[uint64]string // request seq → the release it named
	closed bool
}

// NewRPCCodec returns the server codec of one internal RPC connection.
func NewRPCCodec(rwc io.ReadWriteCloser, logger hclog.Logger) rpc.ServerCodec {
	buf := bufio.NewWriter(rwc)
	return &rpcCodec{rwc: rwc, buf: buf, dec: gob.NewDecoder(rwc), enc: gob.NewEncoder(buf), logger: logger,
		needs: map[uint64]string{}}
}

func (c *rpcCodec) ReadRequestHeader(r *rpc.Request) error {
	if err := c.dec.Decode(r); err != nil {
		return err
	}
	name, release := feature.SplitMethod(r.ServiceMethod)
	if release != "" {
		r.ServiceMethod = name
		c.mu.Lock()
		c.needs[r.Seq] = release
		c.mu.Unlock()
	}
	return nil
}

func (c *rpcCodec) ReadRequestBody(body any) error { return c.dec.Decode(body) }

// unknownMethod is the start of net/rpc's answer to a method it does not
// serve.
const unknownMethod = "rpc: can't find method "

func (c *rpcCodec) WriteResponse(r *rpc.Response, body any) error {
	c.mu.Lock()
	release, named := c.needs[r.Seq]
	delete(c.needs, r.Seq)
	c.mu.Unlock()
	if strings.HasPrefix(r.Error, unknownMethod) {
		err := &feature.TooNewError{What: "RPC " + strings.TrimPrefix(r.Error, unknownMethod), Needs: release}
		if named {
			c.logger.Error("refused an RPC of a newer release", "error", err)
		}
		r.Error = err.Error()
	}
	if err := c.enc.Encode(r); err != nil {
		return c.fail(fmt.Errorf("encode answer header: %w", err))
	}
	if err := c.enc.Encode(body); err != nil {
		return c.fail(fmt.Errorf("encode answer: %w", err))
	}
	return c.buf.Flush()
}

// fail closes a connection whose stream a failed encoding left unusable.
func (c *rpcCodec) fail(err error) error {
	if c.buf.Flush() == nil {
		c.logger.Warn("cluster RPC answer not sent; closing the connection", "error", err)
		c.Close()
	}
	return err
}

func (c *rpcCodec) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	return c.rwc.Close()
}
