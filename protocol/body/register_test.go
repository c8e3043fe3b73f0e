package body

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

const ts = 1700000000000

func r5Body() *RegisterBody {
	return &RegisterBody{
		DataVersion:         state.DataVersion{Timestamp: ts, Counter: 12},
		TopicConfigs:        []state.TopicConfig{{TopicName: "TopicA", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}},
		HasFilterServerList: true,
		MappingInfos: []state.TopicQueueMappingInfo{{
			Topic: "TopicS", Scope: "__global__", TotalQueues: 2, Bname: "broker-a", CurrIDMap: map[int32]int32{0: 0, 1: 1},
		}},
	}
}

func r49Body() *RegisterBody {
	return &RegisterBody{
		DataVersion: state.DataVersion{Timestamp: ts, Counter: 12},
		TopicConfigs: []state.TopicConfig{
			{TopicName: "TopicA", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6},
			{TopicName: "TopicB", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 4, TopicSysFlag: state.FlagUnit},
		},
		HasFilterServerList: true,
	}
}

func legacyBody() *RegisterBody {
	return &RegisterBody{
		DataVersion:  state.DataVersion{Timestamp: ts, Counter: 3},
		TopicConfigs: []state.TopicConfig{{TopicName: "TopicA", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}},
	}
}

// The compressed goldens, hand-built from the compressed layout (docs/contributors/protocol.md, "Register bodies"): a 4.x body (5 tokens, no
// mapping section) and a 5.x body ("{}" 6th token, mapping section).
var (
	raw4x = layout(nil).chunk(`{"counter":7,"timestamp":1700000000000}`).i32(2).
		chunk("TopicA 8 8 6 SINGLE_TAG").chunk("TopicB 4 4 4 SINGLE_TAG").chunk("[]")
	raw5x = layout(nil).chunk(`{"counter":7,"stateVersion":3,"timestamp":1700000000000}`).i32(2).
		chunk("TopicA 8 8 6 SINGLE_TAG {}").chunk("TopicS 2 2 6 SINGLE_TAG {}").chunk("[]").i32(1).
		chunk(`{"bname":"broker-a","currIdMap":{0:0,1:1},"dirty":false,"epoch":0,"scope":"__global__","topic":"TopicS","totalQueues":2}`)
)

func compressed4xBody() *RegisterBody {
	return &RegisterBody{
		DataVersion: state.DataVersion{Timestamp: ts, Counter: 7},
		TopicConfigs: []state.TopicConfig{
			{TopicName: "TopicA", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6},
			{TopicName: "TopicB", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 4},
		},
		HasFilterServerList: true,
	}
}

func compressed5xBody() *RegisterBody {
	return &RegisterBody{
		DataVersion: state.DataVersion{Timestamp: ts, Counter: 7, StateVersion: 3},
		TopicConfigs: []state.TopicConfig{
			{TopicName: "TopicA", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6},
			{TopicName: "TopicS", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6},
		},
		HasFilterServerList: true,
		MappingInfos: []state.TopicQueueMappingInfo{{
			Topic: "TopicS", Scope: "__global__", TotalQueues: 2, Bname: "broker-a", CurrIDMap: map[int32]int32{0: 0, 1: 1},
		}},
	}
}

// TestCompressedGoldens_MatchHandBuiltLayouts regenerates the .zlib goldens
// with -update and otherwise checks that they inflate to the hand-built
// layouts and carry the BEST_COMPRESSION zlib header 78 DA.
func TestCompressedGoldens_MatchHandBuiltLayouts(t *testing.T) {
	for name, raw := range map[string][]byte{"register_4x.zlib": raw4x, "register_5x.zlib": raw5x} {
		if *update {
			if err := os.WriteFile(filepath.Join(goldenDir, name), deflate(t, raw), 0o644); err != nil {
				t.Fatalf("write %s: %v", name, err)
			}
		}
		z := readGolden(t, name)
		if len(z) < 2 || z[0] != 0x78 || z[1] != 0xDA {
			t.Errorf("%s: header % x, want 78 da", name, z[:min(2, len(z))])
		}
		if got := mustInflate(t, z); !bytes.Equal(got, raw) {
			t.Errorf("%s inflates to %q, want %q", name, got, raw)
		}
	}
}

func TestEncodeRegisterBody_PlainGoldens(t *testing.T) {
	cases := []struct {
		name    string
		body    *RegisterBody
		version int32
		golden  string
	}{
		{"5.x shape", r5Body(), 479, "register_r5.json"},
		{"5.0.0 is the first 5.x shape", r5Body(), 413, "register_r5.json"},
		{"4.x shape", r49Body(), 409, "register_r49.json"},
		{"legacy wrapper", legacyBody(), 36, "register_legacy.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeRegisterBody(tc.body, false, tc.version)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if want := readGolden(t, tc.golden); !bytes.Equal(got, want) {
				t.Fatalf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestEncodeRegisterBody_CompressedLayout(t *testing.T) {
	cases := []struct {
		name    string
		body    *RegisterBody
		version int32
		golden  string
	}{
		{"4.x five tokens", compressed4xBody(), 409, "register_4x.zlib"},
		{"5.x six tokens and mapping section", compressed5xBody(), 479, "register_5x.zlib"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeRegisterBody(tc.body, true, tc.version)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if got[0] != 0x78 || got[1] != 0xDA {
				t.Errorf("zlib header % x, want 78 da (BEST_COMPRESSION)", got[:2])
			}
			if g, w := mustInflate(t, got), mustInflate(t, readGolden(t, tc.golden)); !bytes.Equal(g, w) {
				t.Fatalf("inflated\n%q\nwant\n%q", g, w)
			}
		})
	}
}

func TestDecodeRegisterBody_Goldens(t *testing.T) {
	noMappings := compressed5xBody()
	noMappings.MappingInfos = nil
	cases := []struct {
		name       string
		golden     string
		compressed bool
		version    int32
		want       *RegisterBody
	}{
		{"plain 5.x", "register_r5.json", false, 479, r5Body()},
		{"plain 4.x", "register_r49.json", false, 409, r49Body()},
		{"legacy wrapper", "register_legacy.json", false, 36, legacyBody()},
		{"legacy ignores compressed flag", "register_legacy.json", true, 36, legacyBody()},
		{"compressed 4.x", "register_4x.zlib", true, 409, compressed4xBody()},
		{"compressed 5.x", "register_5x.zlib", true, 479, compressed5xBody()},
		{"compressed 5.x body read as 4.x skips part 5", "register_5x.zlib", true, 409, noMappings},
		{"compressed 4.x body from a 5.x version without part 5", "register_4x.zlib", true, 413, compressed4xBody()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeRegisterBody(readGolden(t, tc.golden), tc.compressed, tc.version)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestDecodeRegisterBody_PlainDefaultsAndLeniency(t *testing.T) {
	tc16 := func(name string) state.TopicConfig {
		return state.TopicConfig{TopicName: name, ReadQueueNums: 16, WriteQueueNums: 16, Perm: 6}
	}
	cases := []struct {
		name string
		in   string
		want *RegisterBody
	}{
		{"empty object", `{}`, &RegisterBody{HasFilterServerList: true}},
		{"null filter list leaves table untouched", `{"filterServerList":null}`, &RegisterBody{}},
		{"filter list with number", `{"filterServerList":["a:1",7]}`, &RegisterBody{HasFilterServerList: true, FilterServerList: []string{"a:1", "7"}}},
		{"topic config defaults", `{"topicConfigSerializeWrapper":{"topicConfigTable":{"x":{"topicName":"T"}}}}`,
			&RegisterBody{HasFilterServerList: true, TopicConfigs: []state.TopicConfig{tc16("T")}}},
		{"topic key is topicName, not the map key", `{"topicConfigSerializeWrapper":{"topicConfigTable":{"K":{"topicName":"T","perm":2}}}}`,
			&RegisterBody{HasFilterServerList: true, TopicConfigs: []state.TopicConfig{{TopicName: "T", ReadQueueNums: 16, WriteQueueNums: 16, Perm: 2}}}},
		{"duplicate key keeps first position and last value",
			`{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{"topicName":"A","perm":2},"B":{"topicName":"B"},"A":{"topicName":"A","perm":4}}}}`,
			&RegisterBody{HasFilterServerList: true, TopicConfigs: []state.TopicConfig{
				{TopicName: "A", ReadQueueNums: 16, WriteQueueNums: 16, Perm: 4}, tc16("B")}}},
		{"same topicName under two keys: the later wins",
			`{"topicConfigSerializeWrapper":{"topicConfigTable":{"K1":{"topicName":"A","perm":2},"K2":{"topicName":"B"},"K3":{"topicName":"A","perm":4}}}}`,
			&RegisterBody{HasFilterServerList: true, TopicConfigs: []state.TopicConfig{
				{TopicName: "A", ReadQueueNums: 16, WriteQueueNums: 16, Perm: 4}, tc16("B")}}},
		{"repeated map key drops the earlier topic",
			`{"topicConfigSerializeWrapper":{"topicConfigTable":{"K":{"topicName":"A"},"K":{"topicName":"B"}}}}`,
			&RegisterBody{HasFilterServerList: true, TopicConfigs: []state.TopicConfig{tc16("B")}}},
		{"ref attributes and unknown properties", `{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{"topicName":"A","attributes":{"$ref":"$.x"},"order":true,"topicMessageType":"NORMAL"}}},"extra":1}`,
			&RegisterBody{HasFilterServerList: true, TopicConfigs: []state.TopicConfig{tc16("A")}}},
		{"unquoted keys, single quotes, numeric strings",
			`{topicConfigSerializeWrapper:{dataVersion:{counter:'5',timestamp:"1",stateVersion:2,},topicConfigTable:{A:{topicName:'A',readQueueNums:'4',writeQueueNums:4,perm:"6",topicSysFlag:'1'},},},}`,
			&RegisterBody{HasFilterServerList: true, DataVersion: state.DataVersion{Timestamp: 1, Counter: 5, StateVersion: 2},
				TopicConfigs: []state.TopicConfig{{TopicName: "A", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicSysFlag: 1}}}},
		{"missing timestamp reads as zero", `{"topicConfigSerializeWrapper":{"dataVersion":{"counter":9}}}`,
			&RegisterBody{HasFilterServerList: true, DataVersion: state.DataVersion{Counter: 9}}},
		{"mapping keyed by map key, mixed currIdMap keys, defaults",
			`{"topicConfigSerializeWrapper":{"topicQueueMappingInfoMap":{"K":{"topic":"other","bname":"b","currIdMap":{"0":0,1:"1"},"epoch":"5","dirty":"true"},"E":{}}}}`,
			&RegisterBody{HasFilterServerList: true, MappingInfos: []state.TopicQueueMappingInfo{
				{Topic: "K", Scope: "__global__", Bname: "b", Epoch: 5, Dirty: true, CurrIDMap: map[int32]int32{0: 0, 1: 1}},
				{Topic: "E", Scope: "__global__", CurrIDMap: map[int32]int32{}},
			}}},
		{"null wrapper parts", `{"topicConfigSerializeWrapper":{"dataVersion":null,"topicConfigTable":null,"topicQueueMappingInfoMap":null}}`,
			&RegisterBody{HasFilterServerList: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeRegisterBody([]byte(tc.in), false, 479)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestDecodeRegisterBody_EmptyBody(t *testing.T) {
	for _, v := range []int32{0, 36, 37, 409, 479} {
		for _, compressed := range []bool{false, true} {
			got, err := DecodeRegisterBody(nil, compressed, v)
			if err != nil {
				t.Fatalf("version %d compressed %v: %v", v, compressed, err)
			}
			if !reflect.DeepEqual(got, &RegisterBody{}) {
				t.Fatalf("version %d compressed %v: got %+v, want an empty body", v, compressed, got)
			}
		}
	}
}

// compressedWith builds a 5.x compressed body whose topic part is topics.
func compressedWith(topics ...string) []byte {
	l := layout(nil).chunk(`{"counter":1,"timestamp":2}`).i32(int32(len(topics)))
	for _, s := range topics {
		l = l.chunk(s)
	}
	return l.chunk("[]").i32(0)
}

func TestDecodeRegisterBody_CompressedTokenRules(t *testing.T) {
	cases := []struct {
		name  string
		topic string
		want  state.TopicConfig
	}{
		{"five tokens", "T 1 2 6 SINGLE_TAG", state.TopicConfig{TopicName: "T", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 6}},
		{"trailing space dropped like Java split", "T 1 2 6 SINGLE_TAG ", state.TopicConfig{TopicName: "T", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 6}},
		{"several trailing spaces", "T 1 2 6 SINGLE_TAG   ", state.TopicConfig{TopicName: "T", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 6}},
		{"attributes token", `T 1 2 6 MULTI_TAG {"k":"v"}`, state.TopicConfig{TopicName: "T", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 6}},
		{"attributes with spaces split apart", `T 1 2 6 SINGLE_TAG {"k":"a b"} x`, state.TopicConfig{TopicName: "T", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 6}},
		{"signed numbers as Integer.parseInt", "T +1 -2 6 SINGLE_TAG", state.TopicConfig{TopicName: "T", ReadQueueNums: 1, WriteQueueNums: -2, Perm: 6}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeRegisterBody(deflate(t, compressedWith(tc.topic)), true, 479)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if len(got.TopicConfigs) != 1 || got.TopicConfigs[0] != tc.want {
				t.Fatalf("got %+v, want [%+v]", got.TopicConfigs, tc.want)
			}
		})
	}
}

func TestDecodeRegisterBody_CompressedAccepts(t *testing.T) {
	dv := layout(nil).chunk(`{"counter":1,"timestamp":2}`)
	cases := []struct {
		name    string
		raw     []byte
		version int32
		check   func(*RegisterBody) bool
	}{
		{"null filter list", dv.i32(0).chunk("null"), 409, func(b *RegisterBody) bool { return !b.HasFilterServerList }},
		{"empty filter list text", dv.i32(0).chunk(""), 409, func(b *RegisterBody) bool { return !b.HasFilterServerList }},
		{"filter list", dv.i32(0).chunk(`["10.0.0.1:30000"]`), 409,
			func(b *RegisterBody) bool {
				return b.HasFilterServerList && reflect.DeepEqual(b.FilterServerList, []string{"10.0.0.1:30000"})
			}},
		{"bytes after part 4 ignored by 4.x", append(dv.i32(0).chunk("[]"), 0xde, 0xad), 409, func(b *RegisterBody) bool { return b.HasFilterServerList }},
		{"bytes after part 5 ignored", append(dv.i32(0).chunk("[]").i32(0), 1, 2, 3), 479, func(b *RegisterBody) bool { return b.MappingInfos == nil }},
		{"duplicate topic keeps first position", dv.i32(2).chunk("A 1 1 6 SINGLE_TAG").chunk("A 2 2 6 SINGLE_TAG").chunk("[]"), 409,
			func(b *RegisterBody) bool {
				return len(b.TopicConfigs) == 1 && b.TopicConfigs[0].ReadQueueNums == 2
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeRegisterBody(deflate(t, tc.raw), true, tc.version)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !tc.check(got) {
				t.Fatalf("unexpected body %+v", got)
			}
		})
	}
}

func TestDecodeRegisterBody_Malformed(t *testing.T) {
	dv := layout(nil).chunk(`{"counter":1,"timestamp":2}`)
	topics := dv.i32(1).chunk("A 8 8 6 SINGLE_TAG")
	parts4 := topics.chunk("[]")
	valid := deflate(t, parts4)
	corrupt := bytes.Clone(valid)
	corrupt[len(corrupt)-1] ^= 0xFF
	z := func(l layout) []byte { return deflate(t, l) }
	cases := []struct {
		name       string
		body       []byte
		compressed bool
		version    int32
		want       error
	}{
		{"negative version", []byte(`{}`), false, -1, ErrInvalid},
		{"not zlib", []byte(`{"a":1}`), true, 409, ErrCompressed},
		{"zlib header only", valid[:2], true, 409, ErrCompressed},
		{"truncated zlib stream", valid[:len(valid)-6], true, 409, ErrCompressed},
		{"bad adler checksum", corrupt, true, 409, ErrCompressed},
		{"empty stream", z(nil), true, 409, ErrCompressed},
		{"dataVersion length truncated", z(layout{0, 0}), true, 409, ErrCompressed},
		{"negative dataVersion length", z(layout(nil).i32(-1)), true, 409, ErrCompressed},
		{"oversized dataVersion length", z(layout(nil).i32(1000).chunk("{}")), true, 409, ErrCompressed},
		{"dataVersion not JSON", z(layout(nil).chunk("xx")), true, 409, ErrSyntax},
		{"dataVersion empty", z(layout(nil).chunk("")), true, 409, ErrEmptyBody},
		{"dataVersion an array", z(layout(nil).chunk("[]")), true, 409, ErrType},
		{"topic count missing", z(dv), true, 409, ErrCompressed},
		{"negative topic count", z(dv.i32(-1)), true, 409, ErrCompressed},
		{"huge topic count", z(dv.i32(1 << 30)), true, 409, ErrCompressed},
		{"negative topic length", z(dv.i32(1).i32(-5)), true, 409, ErrCompressed},
		{"truncated topic", z(append(dv.i32(1).i32(50), "abc"...)), true, 409, ErrCompressed},
		{"four tokens", z(compressedWith("A 8 8 6")), true, 479, ErrCompressed},
		{"doubled space", z(compressedWith("A  8 8 6 SINGLE_TAG")), true, 479, ErrCompressed},
		{"non-numeric queue count", z(compressedWith("A x 8 6 SINGLE_TAG")), true, 479, ErrCompressed},
		{"perm overflows int", z(compressedWith("A 8 8 2147483648 SINGLE_TAG")), true, 479, ErrCompressed},
		{"unknown filter type", z(compressedWith("A 8 8 6 TAGS")), true, 479, ErrCompressed},
		{"empty topic name", z(compressedWith(" 8 8 6 SINGLE_TAG")), true, 479, ErrInvalid},
		{"filter list missing", z(topics), true, 409, ErrCompressed},
		{"filter list an object", z(topics.chunk("{}")), true, 409, ErrType},
		{"filter list bad JSON", z(topics.chunk("[")), true, 409, ErrSyntax},
		{"mapping count truncated", z(append(parts4, 0, 0)), true, 479, ErrCompressed},
		{"negative mapping count", z(parts4.i32(-1)), true, 479, ErrCompressed},
		{"truncated mapping info", z(parts4.i32(1).i32(100)), true, 479, ErrCompressed},
		{"mapping info without topic", z(parts4.i32(1).chunk(`{"bname":"b"}`)), true, 479, ErrInvalid},
		{"mapping info an array", z(parts4.i32(1).chunk(`[]`)), true, 479, ErrType},
		{"mapping info bad currIdMap key", z(parts4.i32(1).chunk(`{"topic":"T","currIdMap":{x:1}}`)), true, 479, ErrType},
		{"zlib bytes sent as plain", valid, false, 479, ErrSyntax},
		{"plain top-level array", []byte(`[]`), false, 479, ErrType},
		{"plain top-level string", []byte(`"x"`), false, 479, ErrType},
		{"plain null", []byte(`null`), false, 479, ErrEmptyBody},
		{"plain truncated", []byte(`{"topicConfigSerializeWrapper":{`), false, 479, ErrSyntax},
		{"topicConfigTable an array", []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":[]}}`), false, 479, ErrType},
		{"topic config null", []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":null}}}`), false, 479, ErrType},
		{"topic config without topicName", []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{"perm":6}}}}`), false, 479, ErrInvalid},
		{"perm a word", []byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{"A":{"topicName":"A","perm":"rw"}}}}`), false, 479, ErrType},
		{"filter list an object", []byte(`{"filterServerList":{}}`), false, 479, ErrType},
		{"counter an object", []byte(`{"topicConfigSerializeWrapper":{"dataVersion":{"counter":{}}}}`), false, 479, ErrType},
		{"counter overflows long", []byte(`{"topicConfigSerializeWrapper":{"dataVersion":{"counter":9223372036854775808}}}`), false, 479, ErrRange},
		{"currIdMap value overflows int", []byte(`{"topicConfigSerializeWrapper":{"topicQueueMappingInfoMap":{"T":{"currIdMap":{0:4294967296}}}}}`), false, 479, ErrRange},
		{"mapping under an empty key", []byte(`{"topicConfigSerializeWrapper":{"topicQueueMappingInfoMap":{"":{}}}}`), false, 479, ErrInvalid},
		{"legacy bad JSON", []byte(`{"dataVersion":`), false, 36, ErrSyntax},
		{"legacy array", []byte(`[1]`), false, 36, ErrType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeRegisterBody(tc.body, tc.compressed, tc.version)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if got != nil {
				t.Fatalf("got body %+v with an error", got)
			}
			if !strings.HasPrefix(err.Error(), "body: decode RegisterBrokerBody: ") {
				t.Fatalf("error text %q lacks the body prefix", err)
			}
		})
	}
}

func TestDecodeRegisterBody_DecompressedSizeLimit(t *testing.T) {
	lim := Inflation{Max: 1 << 10}
	declared := deflate(t, layout(nil).chunk(`{}`).i32(1).i32(2000))
	if _, err := DecodeRegisterBodyLimited(declared, true, 409, lim); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a chunk declared over the limit: err = %v, want ErrTooLarge", err)
	}
	many := layout(nil).chunk(`{}`).i32(200)
	for range 200 {
		many = many.chunk("TopicA 8 8 6 SINGLE_TAG")
	}
	if _, err := DecodeRegisterBodyLimited(deflate(t, many.chunk("[]")), true, 409, lim); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("topics adding up over the limit: err = %v, want ErrTooLarge", err)
	}
	atLimit := deflate(t, append(layout(nil).chunk(`{}`).i32(0).chunk("[]"), make([]byte, 1<<10-16)...))
	if _, err := DecodeRegisterBodyLimited(atLimit, true, 409, lim); err != nil {
		t.Fatalf("a body of exactly the limit: %v", err)
	}
	// Zeros inflating a thousand to one are refused after their first bytes.
	if _, err := DecodeRegisterBodyLimited(deflate(t, make([]byte, 64<<20)), true, 409, lim); err == nil {
		t.Fatal("a zip bomb decoded")
	}
}

func TestDecodeRegisterBody_ChargesInflatedBytes(t *testing.T) {
	b := layout(nil).chunk(`{}`).i32(2).chunk("TopicA 8 8 6 SINGLE_TAG").chunk("TopicB 8 8 6 SINGLE_TAG").chunk("[]")
	charged := 0
	lim := Inflation{Charge: func(n int) bool { charged += n; return true }}
	if _, err := DecodeRegisterBodyLimited(deflate(t, b), true, 409, lim); err != nil {
		t.Fatal(err)
	}
	// The stream's bytes, plus each topic's decoded copy and overhead.
	if want := len(b) + 2*(len("TopicA 8 8 6 SINGLE_TAG")+topicConfigOverhead); charged != want {
		t.Fatalf("charged %d bytes, want %d", charged, want)
	}
	refuse := Inflation{Charge: func(n int) bool { return false }}
	if _, err := DecodeRegisterBodyLimited(deflate(t, b), true, 409, refuse); !errors.Is(err, ErrNoMemory) {
		t.Fatalf("err = %v, want ErrNoMemory", err)
	}
}

func TestRegisterBody_RoundTrip(t *testing.T) {
	rich := &RegisterBody{
		DataVersion: state.DataVersion{Timestamp: ts, Counter: 1 << 40, StateVersion: 9},
		TopicConfigs: []state.TopicConfig{
			{TopicName: "%RETRY%group", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6},
			{TopicName: "主题-é", ReadQueueNums: 16, WriteQueueNums: 8, Perm: 2, TopicSysFlag: state.FlagUnit | state.FlagUnitSub},
			{TopicName: `odd"\/topic`, ReadQueueNums: 0, WriteQueueNums: 0, Perm: 0},
		},
		HasFilterServerList: true,
		FilterServerList:    []string{"10.0.0.1:30000", "10.0.0.2:30000"},
	}
	withMapping := *rich
	withMapping.MappingInfos = []state.TopicQueueMappingInfo{
		{Topic: "S1", Scope: "__global__", TotalQueues: 4, Bname: "broker-a", Epoch: 77, Dirty: true, CurrIDMap: map[int32]int32{0: 3, 2: 1}},
		{Topic: "S2", Scope: "custom", TotalQueues: 1, Bname: "broker-b", CurrIDMap: map[int32]int32{}},
	}
	noFilter := *rich
	noFilter.HasFilterServerList, noFilter.FilterServerList = false, nil
	cases := []struct {
		name       string
		body       *RegisterBody
		compressed bool
		version    int32
	}{
		{"legacy", legacyBody(), false, 36},
		{"4.x plain", rich, false, 409},
		{"4.x compressed", rich, true, 409},
		{"4.x compressed without filter list", &noFilter, true, 409},
		{"4.x plain without filter list", &noFilter, false, 409},
		{"5.x plain", &withMapping, false, 479},
		{"5.x compressed", &withMapping, true, 479},
		{"empty 5.x compressed", &RegisterBody{HasFilterServerList: true}, true, 479},
		{"empty 4.x plain", &RegisterBody{HasFilterServerList: true}, false, 409},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			enc, err := EncodeRegisterBody(tc.body, tc.compressed, tc.version)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			got, err := DecodeRegisterBody(enc, tc.compressed, tc.version)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			want := *tc.body
			if tc.version < VersionMappingSection {
				want.DataVersion.StateVersion = 0 // the 4.x DataVersion has no stateVersion
			}
			if tc.compressed { // the string form carries no topicSysFlag
				want.TopicConfigs = append([]state.TopicConfig(nil), want.TopicConfigs...)
				for i := range want.TopicConfigs {
					want.TopicConfigs[i].TopicSysFlag = 0
				}
			}
			if !reflect.DeepEqual(got, &want) {
				t.Fatalf("got  %+v\nwant %+v", got, &want)
			}
		})
	}
}

func TestEncodeRegisterBody_Errors(t *testing.T) {
	cases := []struct {
		name       string
		body       *RegisterBody
		compressed bool
		version    int32
		want       string
	}{
		{"negative version", &RegisterBody{}, false, -1, "negative broker version"},
		{"compressed below 37", &RegisterBody{}, true, 36, "compressed form needs"},
		{"mapping below 413", &RegisterBody{MappingInfos: []state.TopicQueueMappingInfo{{Topic: "T"}}}, false, 412, "mapping infos need"},
		{"nameless topic", &RegisterBody{TopicConfigs: []state.TopicConfig{{}}}, false, 479, "without topicName"},
		{"duplicate topic", &RegisterBody{TopicConfigs: []state.TopicConfig{{TopicName: "A"}, {TopicName: "A"}}}, false, 479, `duplicate topic "A"`},
		{"space in compressed topic", &RegisterBody{TopicConfigs: []state.TopicConfig{{TopicName: "A B"}}}, true, 409, "has a space"},
		{"mapping without topic", &RegisterBody{MappingInfos: []state.TopicQueueMappingInfo{{}}}, false, 479, "mapping info without topic"},
		{"duplicate mapping", &RegisterBody{MappingInfos: []state.TopicQueueMappingInfo{{Topic: "T"}, {Topic: "T"}}}, true, 479, "duplicate mapping info"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeRegisterBody(tc.body, tc.compressed, tc.version)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrInvalid containing %q", err, tc.want)
			}
			if got != nil {
				t.Fatalf("got %q with an error", got)
			}
		})
	}
}

func TestEncodeRegisterBody_NilIsEmpty(t *testing.T) {
	got, err := EncodeRegisterBody(nil, false, 409)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if want := `{"filterServerList":null,"topicConfigSerializeWrapper":{"dataVersion":{"counter":0,"timestamp":0},"topicConfigTable":{}}}`; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
