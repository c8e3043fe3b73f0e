package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// recorder writes every frame it is given to its own file in dir and one line per frame to
// dir/index.tsv. It is shared by all connections of a proxy.
type recorder struct {
	dir    string
	prefix string
	seq    atomic.Int64
	mu     sync.Mutex
	index  *os.File
}

func newRecorder(dir, prefix string) (*recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "index.tsv"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	return &recorder{dir: dir, prefix: prefix, index: f}, nil
}

// conn tracks one proxied connection: its number and the request code of every outstanding opaque,
// so a response file can be named after the request it answers.
type conn struct {
	id      int
	rec     *recorder
	mu      sync.Mutex
	pending map[int]int
}

// record names and writes one frame seen in direction dir ("out": client to server, "in": back).
func (c *conn) record(dir string, frame []byte) {
	h, err := parseHeader(frame)
	seq := c.rec.seq.Add(1)
	var name string
	reqCode, respCode := -1, -1
	kind := h.kind()
	switch {
	case err != nil:
		kind, name = "bad", "UNDECODABLE"
	case kind == "resp":
		c.mu.Lock()
		code, ok := c.pending[h.Opaque]
		delete(c.pending, h.Opaque)
		c.mu.Unlock()
		respCode = h.Code
		if ok {
			reqCode = code
		}
		name = fmt.Sprintf("%s-rc%d", codeName(reqCode), h.Code)
	default:
		reqCode, name = h.Code, codeName(h.Code)
		if kind == "req" {
			c.mu.Lock()
			c.pending[h.Opaque] = h.Code
			c.mu.Unlock()
		}
	}
	file := fmt.Sprintf("%sc%03d-%05d-%s-%s-%s.bin", c.rec.prefix, c.id, seq, dir, kind, name)
	if werr := os.WriteFile(filepath.Join(c.rec.dir, file), frame, 0o644); werr != nil {
		log.Printf("framecap: write %s: %v", file, werr)
	}
	c.rec.mu.Lock()
	defer c.rec.mu.Unlock()
	fmt.Fprintf(c.rec.index, "%s\t%d\t%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n",
		file, c.id, seq, dir, kind, reqCode, respCode, h.Opaque, h.Flag, h.Serialize, h.Version, len(frame))
}

// serve accepts connections on ln and proxies each to target until ln is closed.
func serve(ln net.Listener, target string, rec *recorder) error {
	var n atomic.Int64
	for {
		client, err := ln.Accept()
		if err != nil {
			return err
		}
		c := &conn{id: int(n.Add(1)), rec: rec, pending: map[int]int{}}
		go c.proxy(client, target)
	}
}

// proxy dials target and copies frames both ways, recording each, until either side closes.
func (c *conn) proxy(client net.Conn, target string) {
	server, err := net.Dial("tcp", target)
	if err != nil {
		log.Printf("framecap: conn %d: dial %s: %v", c.id, target, err)
		client.Close()
		return
	}
	done := make(chan struct{}, 2)
	go c.pump("out", client, server, done)
	go c.pump("in", server, client, done)
	<-done
	client.Close()
	server.Close()
	<-done
}

// pump forwards whole frames from src to dst; bytes that do not frame are forwarded raw.
func (c *conn) pump(dir string, src, dst net.Conn, done chan<- struct{}) {
	defer func() { done <- struct{}{} }()
	for {
		frame, err := readFrame(src)
		if err != nil {
			if err != io.EOF {
				log.Printf("framecap: conn %d %s: %v", c.id, dir, err)
			}
			return
		}
		c.record(dir, frame)
		if _, err := dst.Write(frame); err != nil {
			return
		}
	}
}
