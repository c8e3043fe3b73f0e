package lane

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

// serveOne starts a Server that applies "write" (answering the leader's
// applied index 7) and refuses "refused", accepts one connection, and
// returns a client connection to it that has sent a hello of version and
// read the answer's version.
func serveOne(t *testing.T, version byte) (net.Conn, *bufio.Reader, byte) {
	t.Helper()
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	srv := &Server{Workers: NewWorkers(stop), HelloTimeout: 5 * time.Second, Stop: stop, Logger: hclog.NewNullLogger(),
		Forward: func(command []byte, reply *LeaderReply) {
			if string(command) == "refused" {
				reply.ErrKind, reply.Err = KindOther, "refused by the leader"
				return
			}
			reply.Result, reply.Index = append([]byte("applied "), command...), 7
		}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		if conn, err := ln.Accept(); err == nil {
			srv.ServeConn(conn)
		}
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	conn.Write(forwardHello(version))
	v, err := readForwardHello(br)
	if err != nil {
		t.Fatal(err)
	}
	return conn, br, v
}

// readAnswers reads n answers of a connection of version, by call id.
func readAnswers(t *testing.T, br *bufio.Reader, n int, version byte) map[uint64]LeaderReply {
	t.Helper()
	fr := forwardFrameReader{r: br}
	answers := map[uint64]LeaderReply{}
	for range n {
		id, p, err := fr.next()
		if err != nil {
			t.Fatal(err)
		}
		if answers[id], err = decodeForwardAnswer(p, version); err != nil {
			t.Fatal(err)
		}
	}
	return answers
}

// The leader's side answers a newer member's hello with the version both
// speak, runs every request and answers it under its call id with the
// applied index, and closes a connection that announces a frame over the
// bound.
func TestServer_AnswersEveryRequestAndBoundsFrames(t *testing.T) {
	conn, br, v := serveOne(t, forwardLaneVersion+1) // a newer member
	if v != forwardLaneVersion {
		t.Fatalf("hello answer: version %d; want %d", v, forwardLaneVersion)
	}
	var frames []byte
	frames = appendForwardRequest(frames, 41, []byte("write"))
	frames = appendForwardRequest(frames, 42, []byte("refused"))
	conn.Write(frames)
	answers := readAnswers(t, br, 2, v)
	if ok := answers[41]; ok.ErrKind != KindNone || string(ok.Result) != "applied write" || ok.Index != 7 {
		t.Fatalf("answer to 41: %+v", ok)
	}
	if bad := answers[42]; bad.ErrKind != KindOther || bad.Err != "refused by the leader" {
		t.Fatalf("answer to 42: %+v, want the refusal", bad)
	}
	conn.Write(appendForwardFrameHeader(maxForwardFrame + 1))
	if _, err := io.ReadAll(br); err != nil {
		t.Fatalf("after an oversized frame: %v, want the connection closed", err)
	}
}

// A member of lane version 1, which predates the applied index, is
// answered in version 1: the answer it decodes holds the result alone.
func TestServer_AnswersAVersion1MemberWithoutTheIndex(t *testing.T) {
	conn, br, v := serveOne(t, 1)
	if v != 1 {
		t.Fatalf("hello answer to a version 1 member: version %d", v)
	}
	conn.Write(appendForwardRequest(nil, 5, []byte("write")))
	got := readAnswers(t, br, 1, 1)[5]
	if got.ErrKind != KindNone || string(got.Result) != "applied write" || got.Index != 0 {
		t.Fatalf("answer in version 1: %+v, want the result as a version 1 member reads it", got)
	}
}

func appendForwardFrameHeader(l uint32) []byte {
	return append([]byte{byte(l >> 24), byte(l >> 16), byte(l >> 8), byte(l)}, make([]byte, 8)...)
}
