package namesrv

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/protocol/remoting"
)

// TestBadInput_RequestsGetClearErrorsAndChangeNothing sends malformed
// requests; each must answer SYSTEM_ERROR with a remark that says what is
// wrong, and leave the replicated state as it was.
func TestBadInput_RequestsGetClearErrorsAndChangeNothing(t *testing.T) {
	ts := startTestServer(t, nil)
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)
	before := ts.node.FSM().Digest()
	good := registerBody(t, 2, "TopicA", "TopicB")
	withExt := func(drop string, set map[string]string) map[string]string {
		ext := brokerExt("broker-a", "10.0.0.1:10911", "0")
		delete(ext, drop)
		for k, v := range set {
			ext[k] = v
		}
		return ext
	}
	var zlibGarbage bytes.Buffer
	zw := zlib.NewWriter(&zlibGarbage)
	zw.Write([]byte{0, 0, 0, 200, 'x'})
	zw.Close()

	cases := []struct {
		name   string
		req    *remoting.Command
		remark string
	}{
		{"register without brokerName", req(remoting.RegisterBroker, 479, withExt("brokerName", nil), good), "brokerName"},
		{"register without brokerAddr", req(remoting.RegisterBroker, 479, withExt("brokerAddr", nil), good), "brokerAddr"},
		{"register without clusterName", req(remoting.RegisterBroker, 479, withExt("clusterName", nil), good), "clusterName"},
		{"register without brokerId", req(remoting.RegisterBroker, 479, withExt("brokerId", nil), good), "brokerId"},
		{"register with a non-numeric brokerId", req(remoting.RegisterBroker, 479, withExt("", map[string]string{"brokerId": "zero"}), good), "brokerId"},
		{"register with a wrong crc", req(remoting.RegisterBroker, 479, withExt("", map[string]string{"bodyCrc32": "12345"}), good), "crc32 not match"},
		{"register with a garbage JSON body", req(remoting.RegisterBroker, 479, withExt("", nil), []byte(`{"topicConfigSerializeWrapper":[1,2`)), "RegisterBrokerBody"},
		{"register with a body of the wrong type", req(remoting.RegisterBroker, 479, withExt("", nil), []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":"nope"}}`)), "RegisterBrokerBody"},
		{"register with a non-zlib compressed body", req(remoting.RegisterBroker, 409, withExt("", map[string]string{"compressed": "true"}), good), "RegisterBrokerBody"},
		{"register with a truncated compressed body", req(remoting.RegisterBroker, 409, withExt("", map[string]string{"compressed": "true"}), zlibGarbage.Bytes()), "RegisterBrokerBody"},
		{"register with a negative version", req(remoting.RegisterBroker, -1, withExt("", nil), good), "version"},
		{"unregister without brokerAddr", req(remoting.UnregisterBroker, 479, withExt("brokerAddr", nil), nil), "brokerAddr"},
		{"wipe without brokerName", req(remoting.WipeWritePermOfBroker, 479, nil, nil), "brokerName"},
		{"add without brokerName", req(remoting.AddWritePermOfBroker, 479, map[string]string{"brokerName": ""}, nil), "brokerName"},
		{"delete topic without topic", req(remoting.DeleteTopicInNameSrv, 479, nil, nil), "topic"},
		{"register topic with a garbage body", req(remoting.RegisterTopicInNameSrv, 479, map[string]string{"topic": "TopicX"}, []byte("[[[")), "TopicRouteData"},
		{"route without topic", req(remoting.GetRouteInfoByTopic, 479, nil, nil), "topic"},
		{"delete kv without key", req(remoting.DeleteKVConfig, 479, map[string]string{"namespace": "NS"}, nil), "namespace or key is null"},
		{"query data version with a garbage body", req(remoting.QueryDataVersion, 479, withExt("", nil), []byte("{counter:")), "DataVersion"},
		{"topics by cluster without cluster", req(remoting.GetTopicsByCluster, 479, nil, nil), "cluster"},
		{"member group without brokerName", req(remoting.GetBrokerMemberGroup, 479, map[string]string{"clusterName": "c"}, nil), "brokerName"},
		{"config update that is not properties", req(remoting.UpdateNamesrvConfig, 479, nil, []byte("a=\\u00zz")), "string2Properties error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := ts.call(t, tc.req)
			mustCode(t, resp, remoting.SystemError)
			if !strings.Contains(resp.Remark, tc.remark) {
				t.Fatalf("remark %q does not mention %q", resp.Remark, tc.remark)
			}
			if ts.node.FSM().Digest() != before {
				t.Fatal("a refused request changed the state")
			}
		})
	}
}

// TestBadInput_BrokenFramesCloseOnlyTheirConnection writes broken frames on
// raw connections: each is closed without an answer, while another
// connection keeps being served and the state stays as it was.
func TestBadInput_BrokenFramesCloseOnlyTheirConnection(t *testing.T) {
	ts := startTestServer(t, nil)
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)
	before := ts.node.FSM().Digest()
	frame := func(total, headerWord uint32, rest []byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, total)
		b = binary.BigEndian.AppendUint32(b, headerWord)
		return append(b, rest...)
	}
	cases := []struct {
		name string
		data []byte
	}{
		{"oversized length", frame(1<<30, 10, nil)},
		{"length below the header word", binary.BigEndian.AppendUint32(nil, 2)},
		{"header longer than the frame", frame(20, 100, make([]byte, 16))},
		{"unknown serialize type", frame(12, 0x07000008, []byte(`{"code":1}`))},
		{"garbage JSON header", frame(14, 10, []byte(`{"code":{]]]`))},
		{"binary header with a remark past its end", frame(30, 0x01000016, append([]byte{0, 105, 0, 1, 0xff, 0, 0, 0, 1, 0, 0, 0, 0}, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.Write(tc.data)
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			if n, err := io.ReadAll(conn); err != nil || len(n) != 0 {
				t.Fatalf("broken frame got %d bytes, err %v; want the connection closed without an answer", len(n), err)
			}
			mustCode(t, ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil)), remoting.Success)
			if ts.node.FSM().Digest() != before {
				t.Fatal("a broken frame changed the state")
			}
		})
	}
	// A frame cut short by the peer closing: the server sees EOF mid-frame.
	conn, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.Write(frame(100, 10, []byte(`{"code":105`)))
	conn.Close()
	mustCode(t, ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil)), remoting.Success)
}
