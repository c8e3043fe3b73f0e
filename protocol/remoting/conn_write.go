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
	for {
		var f outFrame
		select {
		case f = <-c.out:
		case <-c.done:
			return
		}
		c.wmu.Lock()
		err := c.writeFrames(f, len(c.out))
		c.wmu.Unlock()
		if err != nil {
			return
		}
	}
}

// writeFrames writes f and the next more responses of the queue, then
// flushes, under the write deadline; the caller holds wmu. A write error
// closes the connection and is returned. The batch is bounded by the queue
// length at its start so that a steady stream cannot outlast the write
// deadline set for it.
func (c *Conn) writeFrames(f outFrame, more int) error {
	err := c.writeBatch(f, more)
	if err != nil {
		c.srv.logger.Debug("write failed, closing connection", "conn", c.id, "remote", c.remote, "error", err)
		c.closeWith(err)
		return err
	}
	c.touch()
	return nil
}

// writeBatch is writeFrames without the error handling.
func (c *Conn) writeBatch(f outFrame, more int) error {
	if wt := c.srv.cfg.WriteTimeout; wt > 0 {
		if err := c.nc.SetWriteDeadline(time.Now().Add(wt)); err != nil {
			return err
		}
	}
	if c.bw == nil {
		c.bw = bufio.NewWriterSize(c.nc, writeBufferSize)
	}
	for {
		var err error
		if c.wbuf, err = c.writeFrame(c.bw, c.wbuf[:0], f); err != nil {
			return err
		}
		if more == 0 {
			return c.bw.Flush()
		}
		more--
		f = <-c.out
	}
}

// writeFrame encodes one response into buf and writes it to bw. The
// server's own fields override the handler's: the request's opaque and
// serialize type (mirrored; docs/contributors/protocol.md, "Answers"), and the response flag alone
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
