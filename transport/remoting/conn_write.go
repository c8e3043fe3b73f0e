package remoting

import (
	"bufio"
	"time"
)

// writeBufferSize batches the responses flushed together.
const writeBufferSize = 8 << 10

// writeLoop writes queued responses in order, batching those that are
// ready into one flush, until the connection closes.
func (c *Conn) writeLoop() {
	defer close(c.writerDone)
	bw := bufio.NewWriterSize(c.nc, writeBufferSize)
	var buf []byte
	for {
		var f outFrame
		select {
		case f = <-c.out:
		case <-c.done:
			return
		}
		if wt := c.srv.cfg.WriteTimeout; wt > 0 {
			if err := c.nc.SetWriteDeadline(time.Now().Add(wt)); err != nil {
				c.closeWith(err)
				return
			}
		}
		err := c.writeBatch(bw, &buf, f)
		if err != nil {
			c.srv.logger.Debug("write failed, closing connection", "conn", c.id, "remote", c.remote, "error", err)
			c.closeWith(err)
			return
		}
		c.touch()
	}
}

// writeBatch writes f and the responses already queued behind it, then
// flushes. The batch is bounded by the queue length at its start so that a
// steady stream cannot outlast the write deadline set for it.
func (c *Conn) writeBatch(bw *bufio.Writer, buf *[]byte, f outFrame) error {
	more := len(c.out)
	for {
		var err error
		if *buf, err = c.writeFrame(bw, (*buf)[:0], f); err != nil {
			return err
		}
		if more == 0 {
			return bw.Flush()
		}
		more--
		f = <-c.out
	}
}

// writeFrame encodes one response into buf and writes it to bw. The
// server's own fields override the handler's: the request's opaque and
// serialize type (mirrored; docs/protocol.md, "Answers"), and the response flag alone
// (same section). A response that cannot be encoded is replaced by SYSTEM_ERROR.
func (c *Conn) writeFrame(bw *bufio.Writer, buf []byte, f outFrame) ([]byte, error) {
	r := *f.resp
	r.Opaque = f.opaque
	r.SerializeType = f.st
	r.Flag = FlagResponse
	head, err := appendFrameHead(buf, &r)
	if err != nil {
		c.srv.logger.Warn("response not encodable, sending SYSTEM_ERROR", "conn", c.id, "code", r.Code, "error", err)
		r = Command{Code: SystemError, Language: LanguageJava, Version: ServerVersion, Opaque: f.opaque,
			Flag: FlagResponse, Remark: err.Error(), SerializeType: f.st}
		if head, err = appendFrameHead(buf, &r); err != nil {
			return buf, err
		}
	}
	if _, err := bw.Write(head); err != nil {
		return head, err
	}
	_, err = bw.Write(r.Body)
	return head, err
}
