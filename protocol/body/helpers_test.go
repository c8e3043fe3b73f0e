package body

import (
	"bytes"
	"compress/zlib"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

var update = flag.Bool("update", false, "regenerate the compressed goldens in testdata/bodies from their hand-built layouts")

const goldenDir = "../../testdata/bodies"

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatalf("read golden: %v", err)
	}
	return b
}

// goldenSeeds returns every golden body, for fuzz seeds.
func goldenSeeds(f *testing.F) [][]byte {
	f.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		f.Fatalf("read golden dir: %v", err)
	}
	var out [][]byte
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(goldenDir, e.Name()))
		if err != nil {
			f.Fatalf("read golden: %v", err)
		}
		out = append(out, b)
	}
	return out
}

// mustInflate decompresses a zlib stream in the test, independently of the
// package's inflate.
func mustInflate(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("zlib reader: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("inflate: %v", err)
	}
	return out
}

func deflate(t testing.TB, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	if err != nil {
		t.Fatalf("zlib writer: %v", err)
	}
	if _, err := zw.Write(raw); err != nil {
		t.Fatalf("deflate: %v", err)
	}
	if err := zw.Close(); err != nil {
		t.Fatalf("deflate close: %v", err)
	}
	return buf.Bytes()
}

// layout builds the decompressed binary form (docs/contributors/protocol.md, "Register bodies") by hand.
type layout []byte

// i32 and chunk never write into l's spare capacity, so layouts derived
// from a common prefix stay independent.
func (l layout) i32(v int32) layout {
	l = l[:len(l):len(l)]
	return append(l, byte(uint32(v)>>24), byte(uint32(v)>>16), byte(uint32(v)>>8), byte(v))
}

func (l layout) chunk(s string) layout { return append(l.i32(int32(len(s))), s...) }

// oneGroupRoute is the single broker group with ids 0, 1 and 12 of testdata/bodies/route_*.json.
func oneGroupRoute() *state.TopicRouteData {
	return &state.TopicRouteData{
		BrokerDatas: []state.BrokerData{{
			Cluster:     "DefaultCluster",
			BrokerName:  "broker-a",
			BrokerAddrs: map[int64]string{0: "10.0.0.1:10911", 1: "10.0.0.2:10911", 12: "10.0.0.3:10911"},
		}},
		QueueDatas:        []state.QueueData{{BrokerName: "broker-a", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
		FilterServerTable: map[string][]string{},
	}
}

// zoneRoute is oneGroupRoute with a zone and a non-ASCII orderTopicConf.
func zoneRoute() *state.TopicRouteData {
	r := oneGroupRoute()
	r.BrokerDatas[0].ZoneName = "zone1"
	r.OrderTopicConf = "broker-a:4;broker-é/b:2"
	return r
}

// twoGroupRoute is a typical route: two broker groups, master and slave each.
func twoGroupRoute() *state.TopicRouteData {
	return &state.TopicRouteData{
		BrokerDatas: []state.BrokerData{
			{Cluster: "DefaultCluster", BrokerName: "broker-a", BrokerAddrs: map[int64]string{0: "10.0.0.1:10911", 1: "10.0.0.2:10911"}},
			{Cluster: "DefaultCluster", BrokerName: "broker-b", BrokerAddrs: map[int64]string{0: "10.0.1.1:10911", 1: "10.0.1.2:10911"}},
		},
		QueueDatas: []state.QueueData{
			{BrokerName: "broker-a", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6},
			{BrokerName: "broker-b", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6},
		},
		FilterServerTable: map[string][]string{},
	}
}
