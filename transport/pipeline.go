package transport

import (
	"sync"

	"github.com/hashicorp/raft"
)

// Pipelined is the network transport whose replication pipelines end
// themselves at the first answer Raft gives up on.
//
// hashicorp/raft's pipelined replication can stall for good when a
// follower answers an AppendEntries with Success=false (it could not store
// the entries, e.g. its disk is full) or with a newer term (hashicorp/raft
// issue #612). Raft's decoder stops reading responses at that answer, but
// its sender may still be inside the pipeline's AppendEntries: the
// transport's response reader then waits for a consumer that is gone, the
// in-flight queue fills, and AppendEntries blocks without end. Heartbeats
// go on, so the follower never calls an election and never gets another
// entry until the leader changes. The process chaos test hit this after
// full-disk faults under load (docs/contributors/reliability.md).
//
// endingPipeline sits between the transport's pipeline and Raft: it hands
// every response on to Raft and, after handing on one that Raft stops at,
// closes the transport's pipeline. A blocked AppendEntries then returns
// raft.ErrPipelineShutdown, Raft leaves the pipeline and falls back to one
// AppendEntries at a time with its usual back-off and retries, and returns
// to the pipeline once an AppendEntries succeeds again.
type Pipelined struct{ *raft.NetworkTransport }

// AppendEntriesPipeline opens the transport's pipeline to a follower and
// wraps it so that a refused append closes it.
func (t Pipelined) AppendEntriesPipeline(id raft.ServerID, target raft.ServerAddress) (raft.AppendPipeline, error) {
	p, err := t.NetworkTransport.AppendEntriesPipeline(id, target)
	if err != nil {
		return nil, err
	}
	return newEndingPipeline(p), nil
}

// endingPipeline forwards the responses of an inner pipeline and closes it
// after the first one Raft's decoder stops at.
type endingPipeline struct {
	inner raft.AppendPipeline
	out   chan raft.AppendFuture

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}
	// forwarded is closed when the forwarding goroutine has returned.
	forwarded chan struct{}
}

func newEndingPipeline(inner raft.AppendPipeline) *endingPipeline {
	p := &endingPipeline{
		inner:     inner,
		out:       make(chan raft.AppendFuture),
		closed:    make(chan struct{}),
		forwarded: make(chan struct{}),
	}
	go p.forward()
	return p
}

// forward hands each response on to Raft until one ends the pipeline or
// Close is called. It never blocks after Close.
func (p *endingPipeline) forward() {
	defer close(p.forwarded)
	in := p.inner.Consumer()
	for {
		var fut raft.AppendFuture
		select {
		case fut = <-in:
		case <-p.closed:
			return
		}
		select {
		case p.out <- fut:
		case <-p.closed:
			return
		}
		if endsPipeline(fut) {
			// Raft's decoder has taken this response and stopped reading;
			// closing the inner pipeline wakes a sender blocked behind it.
			p.inner.Close()
			return
		}
	}
}

// endsPipeline reports whether Raft's pipeline decoder stops at this
// response: a newer term, a refused append, or (to be safe) a transport
// error.
func endsPipeline(fut raft.AppendFuture) bool {
	if fut.Error() != nil {
		return true
	}
	req, resp := fut.Request(), fut.Response()
	return !resp.Success || resp.Term > req.Term
}

// AppendEntries sends through the inner pipeline; after a refused append it
// fails with raft.ErrPipelineShutdown (or the closed connection's error).
func (p *endingPipeline) AppendEntries(args *raft.AppendEntriesRequest, resp *raft.AppendEntriesResponse) (raft.AppendFuture, error) {
	return p.inner.AppendEntries(args, resp)
}

// Consumer returns the responses in the order they arrived.
func (p *endingPipeline) Consumer() <-chan raft.AppendFuture { return p.out }

// Close closes the inner pipeline and waits for the forwarding goroutine to
// return. It may be called more than once.
func (p *endingPipeline) Close() error {
	p.closeOnce.Do(func() {
		close(p.closed)
		p.closeErr = p.inner.Close()
		<-p.forwarded
	})
	return p.closeErr
}
