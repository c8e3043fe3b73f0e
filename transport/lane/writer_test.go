package lane

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestFrameWriter_ConcurrentSendersKeepEveryFrameInOrder sends from many
// goroutines over a synchronous pipe, so that senders keep finding a write
// in progress and hand their frames on: every frame arrives once, and each
// sender's frames arrive in the order it sent them.
func TestFrameWriter_ConcurrentSendersKeepEveryFrameInOrder(t *testing.T) {
	const senders, perSender = 16, 300
	client, server := net.Pipe()
	defer server.Close()
	w := newFrameWriter(client)
	defer w.close()

	got := make(chan [senders]int, 1)
	go func() {
		var next [senders]int
		r := bufio.NewReader(server)
		var frame [8]byte
		for n := 0; n < senders*perSender; n++ {
			if _, err := io.ReadFull(r, frame[:]); err != nil {
				t.Errorf("read frame %d: %v", n, err)
				break
			}
			s, seq := binary.BigEndian.Uint32(frame[:4]), int(binary.BigEndian.Uint32(frame[4:]))
			if seq != next[s] {
				t.Errorf("sender %d: frame %d arrived when %d was due", s, seq, next[s])
			}
			next[s] = seq + 1
		}
		got <- next
	}()

	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for seq := range perSender {
				err := w.send(func(b []byte) []byte {
					b = binary.BigEndian.AppendUint32(b, uint32(s))
					return binary.BigEndian.AppendUint32(b, uint32(seq))
				})
				if err != nil {
					t.Errorf("sender %d frame %d: %v", s, seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	select {
	case next := <-got:
		for s, n := range next {
			if n != perSender {
				t.Errorf("sender %d: %d frames arrived, want %d", s, n, perSender)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("frames still missing after 10 s")
	}
}

// countingConn counts the Write calls made on a connection.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes []int // the length of each write
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	c.writes = append(c.writes, len(b))
	c.mu.Unlock()
	return c.Conn.Write(b)
}

// TestFrameWriter_SendersRunnableTogetherShareOneWrite: on one CPU, 16
// senders released at once are all runnable when the first of them finds
// the connection idle; it yields before taking the frames, so others append
// theirs and its write carries more than its own frame. Writing at once, it
// would carry only its own, every time. The scheduler may resume the
// yielding sender early now and then (it looks at its global queue every
// few dozen goroutine switches), so the test asks it of most of 20 trials.
func TestFrameWriter_SendersRunnableTogetherShareOneWrite(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const trials, senders, frameLen = 20, 16, 8
	shared := 0
	for range trials {
		first := firstWriteOfSendersReleasedTogether(t, senders)
		if first > frameLen {
			shared++
		}
	}
	if shared < trials/2 {
		t.Fatalf("the first write carried other senders' frames in %d of %d trials, want most", shared, trials)
	}
}

// firstWriteOfSendersReleasedTogether releases senders at once on a fresh
// writer, each sending one 8-byte frame, and returns the length of the
// connection's first write.
func firstWriteOfSendersReleasedTogether(t *testing.T, senders int) int {
	t.Helper()
	client, server := net.Pipe()
	defer server.Close()
	conn := &countingConn{Conn: client}
	w := newFrameWriter(conn)
	defer w.close()
	go io.Copy(io.Discard, server)

	start := make(chan struct{})
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			<-start
			if err := w.send(func(b []byte) []byte { return binary.BigEndian.AppendUint64(b, uint64(s)) }); err != nil {
				t.Errorf("sender %d: %v", s, err)
			}
		})
	}
	close(start)
	wg.Wait()
	conn.mu.Lock()
	defer conn.mu.Unlock()
	if len(conn.writes) == 0 {
		t.Fatal("nothing was written")
	}
	return conn.writes[0]
}

// TestFrameWriter_PeerThatStopsReadingFailsTheWriter checks that a write
// the peer never takes ends at the write timeout: the writer stops, later
// sends fail, and the connection is closed.
func TestFrameWriter_PeerThatStopsReadingFailsTheWriter(t *testing.T) {
	client, server := net.Pipe() // nothing reads server
	defer server.Close()
	w := newFrameWriter(client)
	w.timeout = 50 * time.Millisecond
	defer w.close()

	// Nothing is writing, so the sender writes its frame itself.
	err := w.send(func(b []byte) []byte { return append(b, 1) })
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("send to a peer that reads nothing = %v, want %v", err, os.ErrDeadlineExceeded)
	}
	if err := w.send(func(b []byte) []byte { return append(b, 2) }); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("send after the writer stopped = %v, want %v", err, os.ErrDeadlineExceeded)
	}
	if _, err := client.Write([]byte{3}); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("connection still open after the writer failed: write = %v", err)
	}
}
