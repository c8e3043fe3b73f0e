package lane

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

// The leader's side answers a newer member's hello with the version both
// speak, runs every request and answers it under its call id, and closes
// a connection that announces a frame over the bound.
func TestServer_AnswersEveryRequestAndBoundsFrames(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	srv := &Server{Workers: NewWorkers(stop), HelloTimeout: 5 * time.Second, Stop: stop, Logger: hclog.NewNullLogger(),
		Forward: func(command []byte, reply *LeaderReply) {
			if string(command) == "refused" {
				reply.ErrKind, reply.Err = KindOther, "refused by the leader"
				return
			}
			reply.Result = append([]byte("applied "), command...)
		}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if conn, err := ln.Accept(); err == nil {
			srv.ServeConn(conn)
		}
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	conn.Write(forwardHello(forwardLaneVersion + 1)) // a newer member
	if v, err := readForwardHello(br); err != nil || v != forwardLaneVersion {
		t.Fatalf("hello answer: version %d, %v; want %d", v, err, forwardLaneVersion)
	}
	var frames []byte
	frames = appendForwardRequest(frames, 41, []byte("write"))
	frames = appendForwardRequest(frames, 42, []byte("refused"))
	conn.Write(frames)
	fr := forwardFrameReader{r: br}
	answers := map[uint64]LeaderReply{}
	for range 2 {
		id, p, err := fr.next()
		if err != nil {
			t.Fatal(err)
		}
		if answers[id], err = decodeForwardAnswer(p); err != nil {
			t.Fatal(err)
		}
	}
	if ok := answers[41]; ok.ErrKind != KindNone || string(ok.Result) != "applied write" {
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

func appendForwardFrameHeader(l uint32) []byte {
	return append([]byte{byte(l >> 24), byte(l >> 16), byte(l >> 8), byte(l)}, make([]byte, 8)...)
}
