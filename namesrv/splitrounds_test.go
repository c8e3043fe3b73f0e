package namesrv

import (
	"context"
	"fmt"
	"hash/crc32"
	"strconv"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// splitBroker sends its topic table as a 5.1.4+ broker with
// enableSplitRegistration does: parts of size topics sharing one
// DataVersion, then one with the rest, possibly none.
type splitBroker struct {
	t       *testing.T
	s       *Server
	cc      *countingCluster
	topics  []state.TopicConfig
	size    int
	version state.DataVersion
}

func newSplitServer(t *testing.T, deleting bool) (*Server, *countingCluster) {
	cc := &countingCluster{benchCluster: &benchCluster{f: fsm.New(hclog.NewNullLogger())}, registered: map[state.BrokerKey]bool{}}
	cfg := DefaultConfig()
	cfg.Settings = NewSettings(map[string]string{PropDeleteTopicWithBrokerRegistration: strconv.FormatBool(deleting)}, nil, "dataDir")
	return New(cfg, cc), cc
}

func newSplitBroker(t *testing.T, s *Server, cc *countingCluster, topics, size int) *splitBroker {
	b := &splitBroker{t: t, s: s, cc: cc, size: size, version: state.DataVersion{Timestamp: 1700000000000, Counter: 1}}
	for i := 0; i < topics; i++ {
		b.topics = append(b.topics, state.TopicConfig{TopicName: fmt.Sprintf("T%05d", i), ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6})
	}
	return b
}

// part sends one part and fails the test unless it is accepted.
func (b *splitBroker) part(topics []state.TopicConfig) {
	b.t.Helper()
	rb := &body.RegisterBody{DataVersion: b.version, TopicConfigs: topics, HasFilterServerList: true}
	raw, err := body.EncodeRegisterBody(rb, false, 479)
	if err != nil {
		b.t.Fatal(err)
	}
	req := &remoting.Command{Code: remoting.RegisterBroker, Language: "JAVA", Version: 479, Body: raw,
		ExtFields: map[string]string{"brokerName": "broker-a", "brokerAddr": "10.0.0.1:10911", "clusterName": "c1",
			"haServerAddr": "10.0.0.1:10912", "brokerId": "0", "compressed": "false", "enableActingMaster": "false",
			"bodyCrc32": strconv.Itoa(int(crc32.ChecksumIEEE(raw) & 0x7FFFFFFF))}}
	if resp := b.s.ServeRemoting(context.Background(), &remoting.Conn{}, req); resp.Code != remoting.Success {
		b.t.Fatalf("part of %d topics answered %d %s", len(topics), resp.Code, resp.Remark)
	}
}

// round sends the whole table in parts; after each part, check runs.
func (b *splitBroker) round(check func(sent int)) {
	b.t.Helper()
	sent := 0
	for sent+b.size <= len(b.topics) {
		b.part(b.topics[sent : sent+b.size])
		sent += b.size
		if check != nil {
			check(sent)
		}
	}
	b.part(b.topics[sent:])
	if check != nil {
		check(len(b.topics))
	}
}

// routed counts the broker's topics the state routes.
func (b *splitBroker) routed() int {
	n := 0
	for _, tc := range b.topics {
		if _, ok := b.cc.f.Route(tc.TopicName, false); ok {
			n++
		}
	}
	return n
}

// Parts of a split registration are each applied, and with
// deleteTopicWithBrokerRegistration none deletes the topics of the other
// parts of its round: once a round has been sent every topic stays routed,
// round after round, whether the last part has the rest (2,500 topics) or
// is empty (3,200).
func TestSplitRounds_EveryPartAppliedNoneDeletesTheOthers(t *testing.T) {
	for _, topics := range []int{2500, 3200} {
		for _, deleting := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d topics, delete %v", topics, deleting), func(t *testing.T) {
				s, cc := newSplitServer(t, deleting)
				b := newSplitBroker(t, s, cc, topics, 800)
				b.round(func(sent int) {
					if got := b.routed(); got != sent {
						t.Fatalf("first round: %d topics sent, %d routed", sent, got)
					}
				})
				for r := 2; r <= 4; r++ {
					b.round(func(sent int) {
						if got := b.routed(); got != topics {
							t.Fatalf("round %d: after %d topics sent, %d of %d routed", r, sent, got, topics)
						}
					})
				}
			})
		}
	}
}

// A round whose first part brings a new DataVersion has every part compared
// with the state: a topic changed in a later part is updated although that
// part's DataVersion is the one the first part stored.
func TestSplitRounds_ChangedTopicInALaterPartIsUpdated(t *testing.T) {
	for _, deleting := range []bool{false, true} {
		s, cc := newSplitServer(t, deleting)
		b := newSplitBroker(t, s, cc, 2500, 800)
		b.round(nil)
		b.round(nil)
		b.topics[2000].Perm, b.topics[2450].Perm = 4, 2
		b.version.Counter++
		b.round(nil)
		for _, tc := range []state.TopicConfig{b.topics[2000], b.topics[2450]} {
			route, _ := cc.f.Route(tc.TopicName, false)
			if len(route.QueueDatas) != 1 || route.QueueDatas[0].Perm != tc.Perm {
				t.Fatalf("delete %v: %s, changed in a later part, routes %+v, want perm %d", deleting, tc.TopicName, route.QueueDatas, tc.Perm)
			}
		}
	}
}

// With deletion on, a topic the broker no longer has goes at the end of the
// round in which its table stopped listing it, and only it.
func TestSplitRounds_DeletionAtTheEndOfTheRound(t *testing.T) {
	s, cc := newSplitServer(t, true)
	b := newSplitBroker(t, s, cc, 2500, 800)
	b.round(nil)
	b.round(nil)
	gone := b.topics[1234].TopicName
	b.topics = append(b.topics[:1234], b.topics[1235:]...)
	b.version.Counter++
	b.round(func(sent int) {
		if got := b.routed(); got != len(b.topics) {
			t.Fatalf("after %d topics of the shrunk table sent, %d of %d routed", sent, got, len(b.topics))
		}
	})
	if _, ok := cc.f.Route(gone, false); ok {
		t.Fatalf("%s, no longer in the broker's table, is still routed after the round", gone)
	}
}

// Unchanged parts are heartbeats recognised from their fingerprints: a
// steady round is neither decoded nor written.
func TestSplitRounds_UnchangedPartsTakeTheHeartbeatPath(t *testing.T) {
	for _, deleting := range []bool{false, true} {
		s, cc := newSplitServer(t, deleting)
		b := newSplitBroker(t, s, cc, 2500, 800)
		b.round(nil)
		b.round(nil) // the first round's writes moved the generation
		gen, decoded, recognised := cc.f.Generation(), cc.decoded, cc.recognised
		b.round(nil)
		if cc.f.Generation() != gen || cc.recognised-recognised != 4 {
			t.Fatalf("delete %v: a steady round of 4 parts: generation %d→%d, %d recognised, want no change and 4",
				deleting, gen, cc.f.Generation(), cc.recognised-recognised)
		}
		// With deletion on, the end of the round checks the whole table
		// once (a heartbeat unless something is to go).
		if want := map[bool]int{false: 0, true: 1}[deleting]; cc.decoded-decoded != want {
			t.Fatalf("delete %v: a steady round took the full path %d times, want %d", deleting, cc.decoded-decoded, want)
		}
	}
}

// A broker that sends whole tables is recognised as such: with deletion on,
// a registration that no longer lists a topic removes it at once.
func TestSplitRounds_WholeTablesDeleteAtOnce(t *testing.T) {
	s, cc := newSplitServer(t, true)
	b := newSplitBroker(t, s, cc, 300, 800)
	b.part(b.topics)
	b.part(b.topics)
	gone := b.topics[7].TopicName
	b.topics = append(b.topics[:7], b.topics[8:]...)
	b.version.Counter++
	b.part(b.topics)
	if _, ok := cc.f.Route(gone, false); ok || b.routed() != len(b.topics) {
		t.Fatalf("after a whole table without %s: it is routed %v, %d of %d others routed", gone, ok, b.routed(), len(b.topics))
	}
}

// A round that lost a part on the way (the broker's registration of it
// failed) deletes nothing: the lost part's topics stay routed.
func TestSplitRounds_RoundMissingAPartDeletesNothing(t *testing.T) {
	s, cc := newSplitServer(t, true)
	b := newSplitBroker(t, s, cc, 2500, 800)
	b.round(nil)
	b.round(nil)
	b.version.Counter++
	b.part(b.topics[:800])
	b.part(b.topics[1600:2400])
	b.part(b.topics[2400:])
	if got := b.routed(); got != len(b.topics) {
		t.Fatalf("after a round without its second part, %d of %d topics routed", got, len(b.topics))
	}
}
