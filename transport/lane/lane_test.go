package lane

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/internal/poll"
)

// fakeLeader is a cluster port that speaks the forward lane (or, with
// old set, closes forward-lane connections as a member that predates the
// lane does) and hands each connection's requests to answer.
type fakeLeader struct {
	ln  net.Listener
	old bool
	// version is the lane version it speaks; 0 for forwardLaneVersion.
	version byte
	conns   atomic.Int32 // forward-lane connections accepted
	// answer is called on the connection's own goroutine with every
	// request; it writes answers through send whenever it likes.
	answer func(id uint64, command []byte, send func(id uint64, r LeaderReply))
	closed chan struct{} // receives once per connection that ended
}

func newFakeLeader(t *testing.T, old bool, answer func(uint64, []byte, func(uint64, LeaderReply))) *fakeLeader {
	t.Helper()
	return startFakeLeader(t, &fakeLeader{old: old, answer: answer})
}

// startFakeLeader listens and serves for f.
func startFakeLeader(t *testing.T, f *fakeLeader) *fakeLeader {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.ln, f.closed = ln, make(chan struct{}, 100)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
			go f.serve(conn)
		}
	}()
	return f
}

func (f *fakeLeader) serve(conn net.Conn) {
	defer func() { f.closed <- struct{}{} }()
	defer conn.Close()
	// Read the protocol byte alone, as the mux does: an old member closes
	// with the hello unread, which resets the connection.
	var first [1]byte
	if _, err := io.ReadFull(conn, first[:]); err != nil || first[0] != testLaneByte || f.old {
		return
	}
	br := bufio.NewReader(conn)
	f.conns.Add(1)
	theirs, err := readForwardHello(br)
	if err != nil {
		return
	}
	version := forwardLaneVersion
	if f.version != 0 {
		version = f.version
	}
	version = min(version, theirs)
	conn.Write(forwardHello(version))
	var mu sync.Mutex
	send := func(id uint64, r LeaderReply) {
		mu.Lock()
		defer mu.Unlock()
		conn.Write(appendForwardAnswer(nil, id, &r, version))
	}
	fr := forwardFrameReader{r: br}
	for {
		id, command, err := fr.next()
		if err != nil {
			return
		}
		f.answer(id, command, send)
	}
}

func (f *fakeLeader) addr() string { return f.ln.Addr().String() }

// testLaneByte stands for the cluster port's protocol byte, which the
// member's Dial writes before the lane's hello.
const testLaneByte = 0x03

func newTestLanes(t *testing.T) *Lanes {
	dial := func(addr string) (net.Conn, error) {
		conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
		if err != nil {
			return nil, err
		}
		if _, err := conn.Write([]byte{testLaneByte}); err != nil {
			conn.Close()
			return nil, err
		}
		return conn, nil
	}
	l := New(Options{Dial: dial, HelloTimeout: 3 * time.Second, StaleAfter: time.Second, Logger: hclog.NewNullLogger()})
	t.Cleanup(l.Close)
	return l
}

// Many writes share one connection, and each gets its own answer although
// the leader answers them in the reverse order.
func TestForwardLane_ConcurrentWritesShareAConnectionAndGetTheirOwnAnswers(t *testing.T) {
	const writes = 50
	var mu sync.Mutex
	var held []func()
	leader := newFakeLeader(t, false, func(id uint64, command []byte, send func(uint64, LeaderReply)) {
		mu.Lock()
		defer mu.Unlock()
		held = append(held, func() { send(id, LeaderReply{Result: append([]byte("answer to "), command...)}) })
		if len(held) == writes {
			for i := len(held) - 1; i >= 0; i-- {
				held[i]()
			}
		}
	})
	lanes := newTestLanes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, writes)
	for i := range writes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			command := fmt.Sprintf("write %d", i)
			reply, err := lanes.Forward(ctx, Cut{}, leader.addr(), []byte(command), false)
			if err == nil && (reply.ErrKind != KindNone || string(reply.Result) != "answer to "+command) {
				err = fmt.Errorf("%s: got %+v", command, reply)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := leader.conns.Load(); got != 1 {
		t.Fatalf("%d connections for %d concurrent writes, want 1", got, writes)
	}
}

// A write's answer carries the leader's applied index from a leader of
// the current version; one of version 1 sends the result alone, which
// the member reads as index 0.
func TestForwardLane_AnswerCarriesTheIndexTheLeaderSpeaks(t *testing.T) {
	for _, version := range []byte{forwardLaneVersion, 1} {
		leader := startFakeLeader(t, &fakeLeader{version: version, answer: func(id uint64, command []byte, send func(uint64, LeaderReply)) {
			send(id, LeaderReply{Result: append([]byte("applied "), command...), Index: 99})
		}})
		reply, err := newTestLanes(t).Forward(context.Background(), Cut{}, leader.addr(), []byte("w"), false)
		want := uint64(99)
		if version < indexedAnswers {
			want = 0
		}
		if err != nil || string(reply.Result) != "applied w" || reply.Index != want {
			t.Fatalf("leader of version %d: %+v, %v; want the result and index %d", version, reply, err, want)
		}
	}
}

// A member that predates the lane closes the connection after the
// protocol byte: the sender is told to use net/rpc, and does not try the
// lane again for a while.
func TestForwardLane_MemberWithoutTheLaneIsReportedAndRemembered(t *testing.T) {
	leader := newFakeLeader(t, true, nil)
	lanes := newTestLanes(t)
	for range 3 {
		_, err := lanes.Forward(context.Background(), Cut{}, leader.addr(), []byte("x"), false)
		if !errors.Is(err, ErrUnsupported) {
			t.Fatalf("forward to a member without the lane: %v, want ErrUnsupported", err)
		}
	}
	select {
	case <-leader.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("no connection reached the old member")
	}
	select {
	case <-leader.closed:
		t.Fatal("the lane was tried again at once")
	default:
	}
	lanes.mu.Lock()
	lanes.legacy[leader.addr()] = time.Now().Add(-time.Second) // the recheck time has come
	lanes.mu.Unlock()
	if _, err := lanes.Forward(context.Background(), Cut{}, leader.addr(), []byte("x"), false); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("after the recheck time: %v, want ErrUnsupported", err)
	}
	<-leader.closed // the lane was tried again
}

// A write whose wait ends while the connection read nothing since it was
// sent closes the connection (it may be stuck); its other writes fail, and
// the next write dials again.
func TestForwardLane_AbandonedWriteOnASilentConnectionClosesIt(t *testing.T) {
	leader := newFakeLeader(t, false, func(uint64, []byte, func(uint64, LeaderReply)) {})
	lanes := newTestLanes(t)
	other := make(chan error, 1)
	go func() {
		_, err := lanes.Forward(context.Background(), Cut{}, leader.addr(), []byte("waits"), false)
		other <- err
	}()
	poll.For(t, 10*time.Second, "the first write to be in flight", func() bool {
		lanes.mu.Lock()
		defer lanes.mu.Unlock()
		c := lanes.conns[leader.addr()]
		if c == nil {
			return false
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.calls) == 1
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := lanes.Forward(ctx, Cut{}, leader.addr(), []byte("times out"), false); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("write to a silent leader: %v, want the deadline", err)
	}
	select {
	case err := <-other:
		if err == nil || errors.Is(err, ErrNotSent) {
			t.Fatalf("the other write on the closed connection: %v, want a failure after sending", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other write still waits on a closed connection")
	}
	<-leader.closed
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	lanes.Forward(ctx2, Cut{}, leader.addr(), []byte("again"), false)
	if got := leader.conns.Load(); got != 2 {
		t.Fatalf("%d connections, want a second one after the first was closed", got)
	}
}

// A write abandoned while answers still arrive on the connection leaves
// the connection to the others; a late answer to it is dropped.
func TestForwardLane_AbandonedWriteOnAnAnsweringConnectionKeepsIt(t *testing.T) {
	late := make(chan func(), 1)
	leader := newFakeLeader(t, false, func(id uint64, command []byte, send func(uint64, LeaderReply)) {
		if string(command) == "slow" {
			late <- func() { send(id, LeaderReply{Result: []byte("late")}) }
			return
		}
		send(id, LeaderReply{Result: command})
	})
	lanes := newTestLanes(t)
	ctx, cancel := context.WithCancel(context.Background())
	slow := make(chan error, 1)
	go func() {
		_, err := lanes.Forward(ctx, Cut{}, leader.addr(), []byte("slow"), false)
		slow <- err
	}()
	answerLate := <-late // the slow write was sent
	if r, err := lanes.Forward(context.Background(), Cut{}, leader.addr(), []byte("quick"), false); err != nil || string(r.Result) != "quick" {
		t.Fatalf("quick write: %+v, %v", r, err)
	}
	cancel()
	if err := <-slow; !errors.Is(err, context.Canceled) {
		t.Fatalf("slow write: %v, want canceled", err)
	}
	answerLate()
	for i := range 3 {
		command := fmt.Sprintf("after %d", i)
		if r, err := lanes.Forward(context.Background(), Cut{}, leader.addr(), []byte(command), false); err != nil || string(r.Result) != command {
			t.Fatalf("%s: %+v, %v", command, r, err)
		}
	}
	if got := leader.conns.Load(); got != 1 {
		t.Fatalf("%d connections, want the first kept", got)
	}
}

// A write on the forward lane whose leader changes ends at once as cut,
// while the leader never answers.
func TestForwardLane_WriteEndsWhenCut(t *testing.T) {
	leader := newFakeLeader(t, false, func(uint64, []byte, func(uint64, LeaderReply)) {})
	lanes := newTestLanes(t)
	changed := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := lanes.Forward(context.Background(), Cut{Changed: changed}, leader.addr(), []byte("x"), false)
		done <- err
	}()
	poll.For(t, 10*time.Second, "the write to be in flight", func() bool { return leader.conns.Load() == 1 })
	close(changed)
	select {
	case err := <-done:
		if !errors.Is(err, ErrCut) {
			t.Fatalf("cut write returned %v, want ErrCut", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cut write still waits")
	}
}

// A leader that takes connections but answers no hello (a paused process)
// holds up neither the writes that give up on it nor writes to another
// leader meanwhile.
func TestForwardLane_PausedLeaderHoldsUpNoOtherWrite(t *testing.T) {
	paused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer paused.Close()
	go func() {
		for {
			conn, err := paused.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
		}
	}()
	healthy := newFakeLeader(t, false, func(id uint64, command []byte, send func(uint64, LeaderReply)) {
		send(id, LeaderReply{Result: command})
	})
	lanes := newTestLanes(t)
	changed := make(chan struct{})
	stuck := make(chan error, 1)
	go func() {
		_, err := lanes.Forward(context.Background(), Cut{Changed: changed}, paused.Addr().String(), []byte("x"), false)
		stuck <- err
	}()
	poll.For(t, 10*time.Second, "the paused leader's connection to be opening", func() bool {
		lanes.mu.Lock()
		defer lanes.mu.Unlock()
		return lanes.dialing[paused.Addr().String()] != nil
	})
	close(changed) // a new leader took office
	if err := <-stuck; !errors.Is(err, ErrNotSent) || !errors.Is(err, ErrCut) {
		t.Fatalf("write to the paused leader: %v, want not sent, cut", err)
	}
	r, err := lanes.Forward(context.Background(), Cut{}, healthy.addr(), []byte("y"), false)
	if err != nil || string(r.Result) != "y" {
		t.Fatalf("write to the new leader: %+v, %v", r, err)
	}
	lanes.mu.Lock()
	stillOpening := lanes.dialing[paused.Addr().String()] != nil
	lanes.mu.Unlock()
	if !stillOpening {
		t.Fatal("the paused leader's hello was answered or gave up before the other write: the test proves nothing")
	}
}
