package remoting

import (
	"bufio"
	"context"
	"io"
	"testing"
)

// repeatReader yields the same frame forever, standing in for a connection
// that carries nothing but route queries.
type repeatReader struct {
	frame []byte
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m := copy(p[n:], r.frame[r.off:])
		n += m
		r.off = (r.off + m) % len(r.frame)
	}
	return n, nil
}

// benchRouteQuery reads the golden route request from a stream and encodes
// a TOPIC_NOT_EXIST answer to it, the server's per-request codec work.
func benchRouteQuery(b *testing.B, golden string) {
	frame := readGolden(b, golden)
	r := bufio.NewReaderSize(&repeatReader{frame: frame}, readBufferSize)
	resp := &Command{Code: TopicNotExist, Language: LanguageJava, Version: ServerVersion, Flag: FlagResponse,
		Remark: "No topic route info in name server for the topic: TopicTest"}
	buf := make([]byte, 0, 512)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		req, err := ReadCommand(r)
		if err != nil {
			b.Fatal(err)
		}
		out := *resp
		out.Opaque, out.SerializeType = req.Opaque, req.SerializeType
		if buf, err = AppendFrame(buf[:0], &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRouteQuery_JSON(b *testing.B)   { benchRouteQuery(b, "java_route_request_json.bin") }
func BenchmarkRouteQuery_Binary(b *testing.B) { benchRouteQuery(b, "java_route_request_binary.bin") }

func BenchmarkDecodeFrame_RouteRequestJSON(b *testing.B) {
	frame := readGolden(b, "java_route_request_json.bin")[4:]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeFrame(frame); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeFrame_RouteRequestJSON(b *testing.B) {
	c := routeRequest(SerializeJSON)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendFrame(buf[:0], c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteCommand_RouteRequestJSON(b *testing.B) {
	c := routeRequest(SerializeJSON)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteCommand(io.Discard, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServer_RouteQuery measures a route query answered through the
// server and client over loopback, with parallel callers sharing one
// connection as a Java client's threads do.
func BenchmarkServer_RouteQuery(b *testing.B) {
	resp := &Command{Code: TopicNotExist, Language: LanguageJava, Version: ServerVersion,
		Remark: "No topic route info in name server for the topic: TopicTest"}
	h := HandlerFunc(func(context.Context, *Conn, *Command) *Command { return resp })
	_, addr := startServer(b, DefaultServerConfig(), h)
	cl := NewClient(DefaultClientConfig())
	defer cl.Close()
	req := routeRequest(SerializeJSON)
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := cl.Invoke(context.Background(), addr, req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// fixedInline answers every request inline with resp.
type fixedInline struct{ resp *Command }

func (h fixedInline) ServeRemoting(context.Context, *Conn, *Command) *Command { return h.resp }

func (h fixedInline) ServeInline(*Conn, *Command) (*Command, bool) { return h.resp, true }

// BenchmarkServer_OneCaller is a route query answered over loopback to one
// caller at a time, the latency a client with nothing else in flight sees:
// by a handler goroutine, and inline on the connection's read goroutine.
func BenchmarkServer_OneCaller(b *testing.B) {
	resp := &Command{Code: TopicNotExist, Language: LanguageJava, Version: ServerVersion,
		Remark: "No topic route info in name server for the topic: TopicTest"}
	for _, tc := range []struct {
		name string
		h    Handler
	}{
		{"handler", HandlerFunc(func(context.Context, *Conn, *Command) *Command { return resp })},
		{"inline", fixedInline{resp}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			_, addr := startServer(b, DefaultServerConfig(), tc.h)
			cl := NewClient(DefaultClientConfig())
			defer cl.Close()
			req := routeRequest(SerializeJSON)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cl.Invoke(context.Background(), addr, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
