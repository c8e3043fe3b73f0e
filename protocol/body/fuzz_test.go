package body

import (
	"errors"
	"reflect"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

var sentinels = []error{ErrEmptyBody, ErrSyntax, ErrTooDeep, ErrTooLarge, ErrType, ErrRange, ErrCompressed, ErrInvalid}

// checkErr fails unless err wraps one of the package's sentinels.
func checkErr(t *testing.T, err error) {
	t.Helper()
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v wraps no sentinel", err)
}

// normalizeInfo applies the Java defaults an encode/decode cycle restores.
func normalizeInfo(info state.TopicQueueMappingInfo) state.TopicQueueMappingInfo {
	if info.Scope == "" {
		info.Scope = metadataScopeGlobal
	}
	if info.CurrIDMap == nil {
		info.CurrIDMap = map[int32]int32{}
	}
	return info
}

func FuzzDecodeRegisterBody(f *testing.F) {
	for _, seed := range goldenSeeds(f) {
		for _, v := range []int32{36, 409, 479} {
			f.Add(seed, false, v)
			f.Add(seed, true, v)
		}
	}
	f.Add(deflate(f, compressedWith("T 1 2 6 SINGLE_TAG {}")), true, int32(479))
	f.Add([]byte(`{topicConfigSerializeWrapper:{topicQueueMappingInfoMap:{T:{currIdMap:{0:0}}}}}`), false, int32(479))
	f.Fuzz(func(t *testing.T, data []byte, compressed bool, version int32) {
		body, err := DecodeRegisterBody(data, compressed, version)
		if err != nil {
			checkErr(t, err)
			if body != nil {
				t.Fatalf("body %+v with error %v", body, err)
			}
			return
		}
		// Whatever decodes re-encodes as a 5.x plain body and reads back
		// the same, up to the Java defaults of the mapping infos.
		enc, err := EncodeRegisterBody(body, false, 479)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", body, err)
		}
		back, err := DecodeRegisterBody(enc, false, 479)
		if err != nil {
			t.Fatalf("decode re-encoded %s: %v", enc, err)
		}
		want := *body
		want.MappingInfos = nil
		for _, info := range body.MappingInfos {
			want.MappingInfos = append(want.MappingInfos, normalizeInfo(info))
		}
		if !reflect.DeepEqual(back, &want) {
			t.Fatalf("round trip:\ngot  %+v\nwant %+v", back, &want)
		}
	})
}

func normalizeRoute(r *state.TopicRouteData) *state.TopicRouteData {
	n := *r
	if n.BrokerDatas == nil {
		n.BrokerDatas = []state.BrokerData{}
	}
	if n.QueueDatas == nil {
		n.QueueDatas = []state.QueueData{}
	}
	if r.TopicQueueMappingByBroker != nil {
		n.TopicQueueMappingByBroker = map[string]state.TopicQueueMappingInfo{}
		for k, info := range r.TopicQueueMappingByBroker {
			n.TopicQueueMappingByBroker[k] = normalizeInfo(info)
		}
	}
	return &n
}

func FuzzDecodeTopicRouteData(f *testing.F) {
	for _, seed := range goldenSeeds(f) {
		f.Add(seed)
	}
	f.Add(EncodeRoute(twoGroupRoute(), Standard))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeTopicRouteData(data)
		if err != nil {
			checkErr(t, err)
			if r != nil {
				t.Fatalf("route %+v with error %v", r, err)
			}
			return
		}
		want := normalizeRoute(r)
		for _, m := range []Mode{Default, Standard} {
			back, err := DecodeTopicRouteData(EncodeRoute(r, m))
			if err != nil {
				t.Fatalf("%v: decode re-encoded route: %v", m, err)
			}
			if !reflect.DeepEqual(back, want) {
				t.Fatalf("%v round trip:\ngot  %+v\nwant %+v", m, back, want)
			}
		}
	})
}
