package remoting

// idleWorkersPerConn bounds the handler goroutines a connection keeps
// waiting for its next request. A worker that finished a request takes the
// next one instead of exiting, so a request does not pay for starting a
// goroutine and growing its stack again to the depth the handlers need;
// beyond this many idle ones, a worker exits.
const idleWorkersPerConn = 2

// queuedRequest is a read request handed to a worker with its budget charge.
type queuedRequest struct {
	req    *Command
	charge int64
}

// dispatch hands a request to a waiting worker of the connection, or
// starts a new one. Either way the request is handled at once: the number
// of requests handled concurrently is bounded by sem, as before.
func (c *Conn) dispatch(req *Command, charge int64) {
	r := queuedRequest{req: req, charge: charge}
	select {
	case c.work <- r:
	default:
		c.workers.Add(1)
		go c.worker(r)
	}
}

// worker serves r, then waits for the connection's next request while no
// more than idleWorkersPerConn others wait, until the connection closes.
func (c *Conn) worker(r queuedRequest) {
	defer c.workers.Done()
	for {
		c.serve(r.req, r.charge)
		if c.idle.Add(1) > idleWorkersPerConn {
			c.idle.Add(-1)
			return
		}
		select {
		case r = <-c.work:
			c.idle.Add(-1)
		case <-c.done:
			c.idle.Add(-1)
			return
		}
	}
}
