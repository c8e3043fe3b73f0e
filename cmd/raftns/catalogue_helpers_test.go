package main

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

// Accounts of the catalogue's member (plain_acl.yml shape).
const (
	catAdminKey, catAdminSecret = "catalogAdmin", "adminSecret1"
	catUserKey, catUserSecret   = "catalogUser", "userSecret1"
	catToken                    = "catalogue-admin-token-0123456789"
	catBudget                   = 32 << 20
)

// catalogueFiles writes the key, token and accounts files.
func catalogueFiles(t *testing.T) (keyFile, tokenFile, aclFile string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("cluster.key", "0f1e2d3c4b5a69788796a5b4c3d2e1f0\n"),
		write("admin.token", catToken+"\n"),
		write("plain_acl.yml", fmt.Sprintf("accounts:\n- accessKey: %s\n  secretKey: %s\n  admin: true\n- accessKey: %s\n  secretKey: %s\n  admin: false\n",
			catAdminKey, catAdminSecret, catUserKey, catUserSecret))
}

// signedRequest returns req with the ACL hook's fields for ak/sk.
func signedRequest(req *remoting.Command, ak, sk string) *remoting.Command {
	ext := map[string]string{acl.FieldAccessKey: ak}
	for k, v := range req.ExtFields {
		ext[k] = v
	}
	ext[acl.FieldSignature] = acl.Sign(ext, req.Body, sk)
	req.ExtFields = ext
	return req
}

// invokeCode sends req and returns the response code.
func invokeCode(t *testing.T, c *nsclient.Client, addr string, req *remoting.Command) (int32, string) {
	t.Helper()
	if req.Language == "" {
		req.Language = remoting.LanguageJava
	}
	resp, err := c.Remoting().Invoke(ctxT(t, 30*time.Second), addr, req)
	if err != nil {
		t.Fatalf("code %d: %v", req.Code, err)
	}
	return resp.Code, resp.Remark
}

// expectCode asserts the answer's code and that the remark says something.
func expectCode(t *testing.T, c *nsclient.Client, addr string, req *remoting.Command, want int32, remarkHas string) {
	t.Helper()
	code, remark := invokeCode(t, c, addr, req)
	if code != want || !strings.Contains(remark, remarkHas) {
		t.Fatalf("answer %d %q, want %d with %q", code, remark, want, remarkHas)
	}
}

// expectClosed sends raw bytes on a fresh connection and expects the member
// to close it.
func expectClosed(t *testing.T, addr string, data []byte, keepOpen bool) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if len(data) > 0 {
		if _, err := conn.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if !keepOpen {
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}
	_ = conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	_, err = io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the member kept the connection open")
	}
}

// frame builds a frame with the given length word, header word and rest.
func frame(length, headerWord uint32, rest []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, length)
	b = binary.BigEndian.AppendUint32(b, headerWord)
	return append(b, rest...)
}

// encode returns a valid frame of c.
func encode(t *testing.T, c *remoting.Command) []byte {
	t.Helper()
	if c.Language == "" {
		c.Language = remoting.LanguageJava
	}
	b, err := remoting.EncodeFrame(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// registerHeader is a REGISTER_BROKER header.
func registerHeader(compressed bool) map[string]string {
	return map[string]string{"brokerName": "broker-evil", "brokerAddr": "10.6.6.6:10911", "clusterName": "c1",
		"haServerAddr": "10.6.6.6:10912", "brokerId": "0", "compressed": fmt.Sprint(compressed)}
}

// deflate compresses raw with zlib.
func deflate(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return b.Bytes()
}

// manyTopicsLayout is a compressed register body's layout with n topics.
func manyTopicsLayout(n int) []byte {
	chunk := func(dst []byte, s string) []byte {
		return append(binary.BigEndian.AppendUint32(dst, uint32(len(s))), s...)
	}
	raw := chunk(nil, `{"counter":1,"timestamp":1}`)
	raw = binary.BigEndian.AppendUint32(raw, uint32(n))
	for i := range n {
		raw = chunk(raw, fmt.Sprintf("T%07d 8 8 6 SINGLE_TAG", i))
	}
	return chunk(raw, "[]")
}

// zeroBomb is the zlib of size zero bytes.
func zeroBomb(t *testing.T, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	zero := make([]byte, 1<<20)
	for range size >> 20 {
		zw.Write(zero)
	}
	zw.Close()
	return b.Bytes()
}

// flood sends frames over conns connections without waiting and returns
// the codes answered.
func flood(t *testing.T, addr string, conns int, frames [][]byte) []int32 {
	t.Helper()
	type result struct {
		codes []int32
		err   error
	}
	results := make(chan result, conns)
	for i := range conns {
		go func(i int) {
			var r result
			defer func() { results <- r }()
			conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
			if err != nil {
				r.err = err
				return
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(2 * time.Minute))
			var mine [][]byte
			for j := i; j < len(frames); j += conns {
				mine = append(mine, frames[j])
			}
			go func() {
				for _, f := range mine {
					if _, err := conn.Write(f); err != nil {
						return
					}
				}
			}()
			br := bufio.NewReader(conn)
			for range mine {
				resp, err := remoting.ReadCommand(br)
				if err != nil {
					r.err = err
					return
				}
				r.codes = append(r.codes, resp.Code)
			}
		}(i)
	}
	var codes []int32
	for range conns {
		r := <-results
		if r.err != nil {
			t.Fatalf("flood connection: %v", r.err)
		}
		codes = append(codes, r.codes...)
	}
	return codes
}

// adminRequest sends an admin HTTP request with an optional token.
func adminRequest(t *testing.T, p *proc, method, path, token string, body io.Reader) int {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, "http://"+p.HTTPAddr+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
