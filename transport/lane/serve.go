package lane

import (
	"bufio"
	"errors"
	"io"
	"net"
	"time"

	"github.com/hashicorp/go-hclog"
)

// maxForwardsInFlight bounds the forwarded writes one forward-lane
// connection may have running on the leader; the connection is not read
// further until one finishes.
const maxForwardsInFlight = 256

// forwardReadBuffer is the read buffer of a forward-lane connection: one
// read system call takes in every frame that arrived together.
const forwardReadBuffer = 64 << 10

// Server is the leader's side of the forward lane.
type Server struct {
	// Workers run the forwarded writes.
	Workers *Workers
	// Forward runs one forwarded write and records its answer in reply.
	Forward func(command []byte, reply *LeaderReply)
	// HelloTimeout bounds the hello exchange on a new connection.
	HelloTimeout time.Duration
	// Stop closes when the member shuts down.
	Stop   <-chan struct{}
	Logger hclog.Logger
}

// ServeConn serves one forward-lane connection: it answers the hello,
// then runs every request frame on a forward worker and queues its
// answer, until the connection closes or breaks a rule.
func (s *Server) ServeConn(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReaderSize(conn, forwardReadBuffer)
	_ = conn.SetDeadline(time.Now().Add(s.HelloTimeout))
	version, err := readForwardHello(br)
	if err != nil {
		s.Logger.Warn("forward lane connection without a valid hello", "remote", conn.RemoteAddr(), "error", err)
		return
	}
	version = min(version, forwardLaneVersion)
	if _, err := conn.Write(forwardHello(version)); err != nil {
		return
	}
	_ = conn.SetDeadline(time.Time{})

	w := newFrameWriter(conn)
	defer w.close()
	slots := make(chan struct{}, maxForwardsInFlight)
	fr := forwardFrameReader{r: br}
	for {
		id, command, err := fr.next()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				s.Logger.Warn("forward lane connection closed", "remote", conn.RemoteAddr(), "error", err)
			}
			return
		}
		select {
		case slots <- struct{}{}:
		case <-s.Stop:
			return
		}
		s.Workers.Submit(func() {
			defer func() { <-slots }()
			var reply LeaderReply
			s.Forward(command, &reply)
			// A connection closed meanwhile drops the answer: the sender
			// saw the close and retries.
			_ = w.send(func(b []byte) []byte { return appendForwardAnswer(b, id, &reply, version) })
		}, nil)
	}
}
