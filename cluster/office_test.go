package cluster

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// officeLog is a hook that records when it takes and leaves office.
type officeLog struct {
	mu     sync.Mutex
	events []string
	office *Office
}

func (l *officeLog) TakeOffice(o Office) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf("take %d", o.Epoch()))
	l.office = &o
}

func (l *officeLog) LeaveOffice() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, "leave")
	l.office = nil
}

func (l *officeLog) state() ([]string, *Office) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...), l.office
}

// Hooks take office with the leader only, leave with it, and hear of
// broker connection closes while in office.
func TestOffice_HooksFollowTheLeader(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	old := tc.waitLeaderReady()
	logs := map[string]*officeLog{}
	for _, m := range tc.running() {
		logs[m.id] = &officeLog{}
		m.node.OnOffice("test", logs[m.id])
	}
	// The leader may be ready and not yet have run its hooks.
	poll.For(t, 5*time.Second, "the leader's hook in office", func() bool {
		_, o := logs[old.id].state()
		return o != nil
	})
	events, office := logs[old.id].state()
	if want := fmt.Sprintf("take %d", old.node.lessor.Epoch()); len(events) != 1 || events[0] != want || office == nil || !office.Held() {
		t.Fatalf("a hook registered in office: %v, held %v; want [%s], held", events, office != nil && office.Held(), want)
	}
	for _, f := range tc.followers() {
		if events, _ := logs[f.id].state(); len(events) != 0 {
			t.Fatalf("follower %s's hook: %v", f.id, events)
		}
	}
	key := state.BrokerKey{Cluster: "c", Addr: "10.0.0.1:10911"}
	old.node.BrokerConnected(key)
	old.node.BrokerDisconnected(key)
	select {
	case <-office.ConnClosed():
	case <-time.After(5 * time.Second):
		t.Fatal("no signal of the closed connection")
	}

	tc.stop(old)
	leader := tc.waitLeaderReady()
	if events, _ := logs[old.id].state(); len(events) != 2 || events[1] != "leave" {
		t.Fatalf("the old leader's hook: %v, want it to have left office", events)
	}
	if office.Held() {
		t.Fatal("a term of office ended is still held")
	}
	poll.For(t, 5*time.Second, "the new leader's hook in office", func() bool {
		_, o := logs[leader.id].state()
		return o != nil && o.Held() && o.Epoch() == leader.node.lessor.Epoch()
	})
	replaced := logs[leader.id]
	logs[leader.id] = &officeLog{}
	leader.node.OnOffice("test", logs[leader.id])
	if events, _ := replaced.state(); events[len(events)-1] != "leave" {
		t.Fatalf("a replaced hook did not leave office: %v", events)
	}
	if _, o := logs[leader.id].state(); o == nil || !o.Held() {
		t.Fatal("the replacing hook is not in office")
	}
}
