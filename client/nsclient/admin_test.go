package nsclient

import (
	"context"
	"maps"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// fakeServer answers every request with answer and keeps what it received.
type fakeServer struct {
	addr string
	mu   sync.Mutex
	got  []*remoting.Command
}

func startFake(t *testing.T, answer func(req *remoting.Command) *remoting.Command) *fakeServer {
	t.Helper()
	fs := &fakeServer{}
	rs := remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			fs.mu.Lock()
			fs.got = append(fs.got, req)
			fs.mu.Unlock()
			return answer(req)
		}), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fs.addr = ln.Addr().String()
	go rs.Serve(ln)
	t.Cleanup(func() { rs.Close() })
	return fs
}

func (fs *fakeServer) last(t *testing.T) *remoting.Command {
	t.Helper()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.got) == 0 {
		t.Fatal("the server received nothing")
	}
	return fs.got[len(fs.got)-1]
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestGetKVList_DecodesTableAndPassesNotFound(t *testing.T) {
	fs := startFake(t, func(req *remoting.Command) *remoting.Command {
		if req.ExtFields["namespace"] != "NS" {
			return remoting.NewResponse(req, remoting.QueryNotFound, "No config item, Namespace: "+req.ExtFields["namespace"])
		}
		resp := remoting.NewResponse(req, remoting.Success, "")
		resp.Body = body.EncodeKVTable(map[string]string{"a": "1", "b": ""})
		return resp
	})
	c := New(remoting.ClientConfig{})
	defer c.Close()
	got, err := c.GetKVList(testContext(t), fs.addr, "NS")
	if err != nil || !maps.Equal(got, map[string]string{"a": "1", "b": ""}) {
		t.Fatalf("GetKVList = %v, %v", got, err)
	}
	if req := fs.last(t); req.Code != remoting.GetKVListByNamespace {
		t.Errorf("code = %d, want %d", req.Code, remoting.GetKVListByNamespace)
	}
	if _, err := c.GetKVList(testContext(t), fs.addr, "OTHER"); !IsCode(err, remoting.QueryNotFound) {
		t.Errorf("missing namespace: err = %v, want QUERY_NOT_FOUND", err)
	}
}

func TestGetNamesrvConfig_ReturnsBody(t *testing.T) {
	fs := startFake(t, func(req *remoting.Command) *remoting.Command {
		resp := remoting.NewResponse(req, remoting.Success, "")
		resp.Body = []byte("orderMessageEnable=true\n")
		return resp
	})
	c := New(remoting.ClientConfig{})
	defer c.Close()
	got, err := c.GetNamesrvConfig(testContext(t), fs.addr)
	if err != nil || string(got) != "orderMessageEnable=true\n" {
		t.Fatalf("GetNamesrvConfig = %q, %v", got, err)
	}
	if req := fs.last(t); req.Code != remoting.GetNamesrvConfig {
		t.Errorf("code = %d, want %d", req.Code, remoting.GetNamesrvConfig)
	}
}

func TestStoredDataVersion_SendsEmptyVersion(t *testing.T) {
	fs := startFake(t, func(req *remoting.Command) *remoting.Command {
		resp := remoting.NewResponse(req, remoting.Success, "")
		resp.ExtFields = map[string]string{"changed": "true"}
		if req.ExtFields["brokerAddr"] == "10.0.0.1:10911" {
			resp.Body = []byte(`{"counter":7,"stateVersion":2,"timestamp":1700000000000}`)
		}
		return resp
	})
	c := New(remoting.ClientConfig{})
	defer c.Close()
	dv, err := c.StoredDataVersion(testContext(t), fs.addr, "C", "b", "10.0.0.1:10911", 0)
	if err != nil || dv == nil || dv.Counter != 7 || dv.StateVersion != 2 || dv.Timestamp != 1700000000000 {
		t.Fatalf("StoredDataVersion = %+v, %v", dv, err)
	}
	req := fs.last(t)
	if sent, err := body.DecodeDataVersion(req.Body, -1); err != nil || sent.Counter != 0 || sent.Timestamp != 0 || sent.StateVersion != 0 {
		t.Errorf("sent DataVersion %q (%v), want all zero", req.Body, err)
	}
	if dv, err := c.StoredDataVersion(testContext(t), fs.addr, "C", "b", "10.0.0.9:10911", 0); err != nil || dv != nil {
		t.Errorf("unknown broker: %+v, %v, want nil, nil", dv, err)
	}
}

func TestCredentials_SignEveryRequestWithoutTouchingTheCaller(t *testing.T) {
	fs := startFake(t, func(req *remoting.Command) *remoting.Command { return remoting.NewResponse(req, remoting.Success, "") })
	c := New(remoting.ClientConfig{})
	defer c.Close()
	c.Credentials = &Credentials{AccessKey: "ak", SecretKey: "sk"}
	if err := c.PutKV(testContext(t), fs.addr, "NS", "k", "v"); err != nil {
		t.Fatal(err)
	}
	req := fs.last(t)
	if req.ExtFields[acl.FieldAccessKey] != "ak" {
		t.Fatalf("AccessKey = %q, want ak", req.ExtFields[acl.FieldAccessKey])
	}
	if want := acl.Sign(req.ExtFields, req.Body, "sk"); req.ExtFields[acl.FieldSignature] != want {
		t.Errorf("Signature = %q, want %q", req.ExtFields[acl.FieldSignature], want)
	}
	ext := map[string]string{"namespace": "NS"}
	own := &remoting.Command{Code: remoting.GetKVListByNamespace, ExtFields: ext}
	if _, err := c.Invoke(testContext(t), fs.addr, own); err != nil {
		t.Fatal(err)
	}
	if len(ext) != 1 || len(own.ExtFields) != 1 {
		t.Errorf("the caller's header fields were changed: %v", own.ExtFields)
	}
	if got := fs.last(t).ExtFields[acl.FieldSignature]; got == "" {
		t.Error("a command sent through Invoke was not signed")
	}
}
