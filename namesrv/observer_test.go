package namesrv

import (
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/protocol/remoting"
)

// recordingObserver remembers the request codes it was given.
type recordingObserver struct {
	mu    sync.Mutex
	codes map[int32]int
}

func (o *recordingObserver) ObserveRequest(code, _ int32, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.codes[code]++
}

// Request codes a client invents reach the observer as one code, so the
// metrics' label sets stay bounded by the codes the server serves.
func TestServer_UnservedRequestCodesAreObservedAsOne(t *testing.T) {
	obs := &recordingObserver{codes: map[int32]int{}}
	ts := startTestServer(t, func(c *Config) { c.Observer = obs })
	for code := int32(20000); code < 20050; code++ {
		mustCode(t, ts.call(t, req(code, 479, nil, nil)), remoting.RequestCodeNotSupported)
	}
	mustCode(t, ts.call(t, req(remoting.GetKVConfig, 479, map[string]string{"namespace": "n", "key": "k"}, nil)), remoting.QueryNotFound)
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if obs.codes[UnsupportedRequest] != 50 || obs.codes[remoting.GetKVConfig] != 1 || len(obs.codes) != 2 {
		t.Fatalf("observed codes = %v, want 50 × UnsupportedRequest and 1 × GET_KV_CONFIG only", obs.codes)
	}
}
