package namesrv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

// An answer larger than a frame is refused with an error the client can
// read, naming the limit and the way out, never sent as a frame the client
// would refuse: here a KV namespace of 17 MB.
func TestFitFrame_OverFrameAnswerRefusedClearly(t *testing.T) {
	ts := startTestServer(t, nil)
	value := strings.Repeat("v", 60000)
	const keys = 290 // 290 × 60,000 bytes: above 16 MiB
	for i := 0; i < keys; i++ {
		mustCode(t, ts.call(t, req(remoting.PutKVConfig, 479, map[string]string{"namespace": "BIG", "key": fmt.Sprintf("k%03d", i), "value": value}, nil)), remoting.Success)
	}
	mustCode(t, ts.call(t, req(remoting.PutKVConfig, 479, map[string]string{"namespace": "SMALL", "key": "k", "value": value}, nil)), remoting.Success)

	resp := ts.call(t, req(remoting.GetKVListByNamespace, 479, map[string]string{"namespace": "BIG"}, nil))
	mustCode(t, resp, remoting.SystemError)
	for _, want := range []string{"16777212-byte frame limit", "GET_KV_CONFIG"} {
		if !strings.Contains(resp.Remark, want) {
			t.Fatalf("remark %q lacks %q", resp.Remark, want)
		}
	}
	// The connection is still good, and an answer that fits is sent.
	resp = ts.call(t, req(remoting.GetKVListByNamespace, 479, map[string]string{"namespace": "SMALL"}, nil))
	mustCode(t, resp, remoting.Success)
	if len(resp.Body) < len(value) {
		t.Fatalf("the small namespace answered %d bytes", len(resp.Body))
	}
}

func TestFitFrame_EveryTopicListSaysHowToAskForLess(t *testing.T) {
	for _, code := range []int32{remoting.GetAllTopicListFromNameSrv, remoting.GetTopicsByCluster, remoting.GetSystemTopicListFromNS,
		remoting.GetUnitTopicList, remoting.GetHasUnitSubTopicList, remoting.GetHasUnitSubUnunitTopicList} {
		if got := askForLess(code); !strings.Contains(got, "one topic at a time") {
			t.Errorf("code %d: way out %q", code, got)
		}
	}
}
