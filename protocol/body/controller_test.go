package body

import (
	"reflect"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func TestSyncStateSet_RoundTripAndJavaForms(t *testing.T) {
	enc := EncodeSyncStateSet([]int64{1, 3}, 7)
	if string(enc) != `{"syncStateSet":[1,3],"syncStateSetEpoch":7}` {
		t.Fatalf("encoded %s", enc)
	}
	for _, in := range []string{string(enc), `{"syncStateSetEpoch":7,"syncStateSet":[1,null,3],"x":{"y":1}}`} {
		got, err := DecodeSyncStateSet([]byte(in))
		if err != nil || !reflect.DeepEqual(got, SyncStateSet{IDs: []int64{1, 3}, Epoch: 7}) {
			t.Fatalf("decode %s = %+v, %v", in, got, err)
		}
	}
	for _, bad := range []string{``, `[]`, `{"syncStateSet":{}}`, `{"syncStateSet":["a"]}`, `{"syncStateSetEpoch":99999999999}`} {
		if _, err := DecodeSyncStateSet([]byte(bad)); err == nil {
			t.Errorf("decode %q: no error", bad)
		} else {
			checkErr(t, err)
		}
	}
}

func TestElectMasterResponseBody_Golden(t *testing.T) {
	g := &state.BrokerMemberGroup{Cluster: "c", BrokerName: "b", BrokerAddrs: map[int64]string{2: "h:2", 1: "h:1"}}
	want := `{"brokerMemberGroup":{"brokerAddrs":{1:"h:1",2:"h:2"},"brokerName":"b","cluster":"c"},"syncStateSet":[1]}`
	if got := string(EncodeElectMasterResponseBody(g, []int64{1})); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := string(EncodeElectMasterResponseBody(nil, []int64{1, 2})); got != `{"syncStateSet":[1,2]}` {
		t.Fatalf("without group: %s", got)
	}
}

func FuzzDecodeControllerBodies(f *testing.F) {
	f.Add([]byte(`{"syncStateSet":[1,2],"syncStateSetEpoch":3}`))
	f.Add([]byte(`["broker-a","broker-b"]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := DecodeSyncStateSet(b); err != nil {
			checkErr(t, err)
		} else if again, err := DecodeSyncStateSet(EncodeSyncStateSet(s.IDs, s.Epoch)); err != nil || !reflect.DeepEqual(again.Epoch, s.Epoch) || len(again.IDs) != len(s.IDs) {
			t.Fatalf("re-decoding %+v: %+v, %v", s, again, err)
		}
		if _, err := DecodeStringList(b); err != nil {
			checkErr(t, err)
		}
	})
}
