package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// soakCluster is the broker cluster name of the fake brokers.
const soakCluster = "SoakCluster"

// fakeBroker is one broker's identity: churn renames it, a topic write
// bumps its DataVersion with a changed topic list.
type fakeBroker struct {
	// send is held while the broker talks to the members, so that its
	// registrations and its unregistration arrive in the order sent.
	send    sync.Mutex
	mu      sync.Mutex
	index   int
	gen     int
	counter int64
}

func (b *fakeBroker) registration() *nsclient.Registration {
	b.mu.Lock()
	defer b.mu.Unlock()
	name := fmt.Sprintf("soak-%d-g%d", b.index, b.gen)
	// A new generation is a new broker: a new name on a new address.
	addr := fmt.Sprintf("127.1.%d.%d:%d", b.gen/250, b.gen%250+1, 40000+b.index)
	topics := []state.TopicConfig{
		{TopicName: "T-" + name, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6},
		{TopicName: fmt.Sprintf("T-%s-v%d", name, b.counter%4), ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6},
	}
	return &nsclient.Registration{ClusterName: soakCluster, BrokerName: name, BrokerAddr: addr, HaServerAddr: addr + "1",
		Body: body.RegisterBody{DataVersion: state.DataVersion{Timestamp: 1, Counter: b.counter}, TopicConfigs: topics}}
}

// Counts are what the load did; errors are expected around leader
// transfers and the restart, and are reported, not failed on.
type Counts struct {
	Registrations, RegistrationErrors atomic.Int64
	Unregistrations                   atomic.Int64
	Writes, WriteErrors               atomic.Int64
	Reads, ReadErrors                 atomic.Int64
}

func (c *Counts) String() string {
	return fmt.Sprintf("registrations=%d (errors %d) unregistrations=%d writes=%d (errors %d) reads=%d (errors %d)",
		c.Registrations.Load(), c.RegistrationErrors.Load(), c.Unregistrations.Load(), c.Writes.Load(),
		c.WriteErrors.Load(), c.Reads.Load(), c.ReadErrors.Load())
}

// load drives the fake brokers, writers and readers against members.
type load struct {
	members   func() []*launch.Member
	nc        *nsclient.Client
	brokers   []*fakeBroker
	heartbeat time.Duration
	counts    *Counts
}

func newLoad(members func() []*launch.Member, nc *nsclient.Client, brokers int, heartbeat time.Duration, counts *Counts) *load {
	l := &load{members: members, nc: nc, heartbeat: heartbeat, counts: counts}
	for i := range brokers {
		l.brokers = append(l.brokers, &fakeBroker{index: i, counter: 1})
	}
	return l
}

// run starts every traffic source and returns when stop closes and all
// have ended.
func (l *load) run(stop <-chan struct{}) {
	var wg sync.WaitGroup
	for _, f := range []func(<-chan struct{}){l.heartbeats, l.churn, l.topicWrites, l.kvWrites, l.reads} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(stop)
		}()
	}
	wg.Wait()
}

// heartbeats registers each broker with every member once per heartbeat
// period, spread evenly over it, as brokers do.
func (l *load) heartbeats(stop <-chan struct{}) {
	pace := l.heartbeat / time.Duration(len(l.brokers))
	for i := 0; poll.Sleep(pace, stop); i = (i + 1) % len(l.brokers) {
		go l.register(l.brokers[i])
	}
}

// register sends b's registration to every member at once and waits for
// their answers.
func (l *load) register(b *fakeBroker) {
	b.send.Lock()
	defer b.send.Unlock()
	reg := b.registration()
	l.everyMember(func(ctx context.Context, m *launch.Member) {
		if _, err := l.nc.RegisterBroker(ctx, m.ClientAddr, reg); err != nil {
			l.counts.RegistrationErrors.Add(1)
			return
		}
		l.counts.Registrations.Add(1)
	})
}

// everyMember runs f for each member concurrently, each bounded by 3 s,
// and waits for all.
func (l *load) everyMember(f func(context.Context, *launch.Member)) {
	var wg sync.WaitGroup
	for _, m := range l.members() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			f(ctx, m)
		}()
	}
	wg.Wait()
}

// churn shuts one broker down every 2 s (unregister from every member)
// and brings it back under a new name.
func (l *load) churn(stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(1, 1))
	for poll.Sleep(2*time.Second, stop) {
		go l.replace(l.brokers[rng.IntN(len(l.brokers))])
	}
}

// replace unregisters b from every member and registers it as the next
// generation.
func (l *load) replace(b *fakeBroker) {
	b.send.Lock()
	reg := b.registration()
	l.everyMember(func(ctx context.Context, m *launch.Member) {
		if l.nc.UnregisterBroker(ctx, m.ClientAddr, reg.ClusterName, reg.BrokerName, reg.BrokerAddr, 0) == nil {
			l.counts.Unregistrations.Add(1)
		}
	})
	b.mu.Lock()
	b.gen++
	b.mu.Unlock()
	b.send.Unlock()
	l.register(b)
}

// topicWrites changes one broker's topics every 500 ms: a registration
// with a new DataVersion, which is a replicated write.
func (l *load) topicWrites(stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(2, 2))
	for poll.Sleep(500*time.Millisecond, stop) {
		b := l.brokers[rng.IntN(len(l.brokers))]
		b.mu.Lock()
		b.counter++
		b.mu.Unlock()
		go l.register(b)
	}
}

// kvWrites puts one of 200 KV keys every 100 ms through a random member.
func (l *load) kvWrites(stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; poll.Sleep(100*time.Millisecond, stop); i++ {
		ms := l.members()
		m := ms[rng.IntN(len(ms))]
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := l.nc.PutKV(ctx, m.ClientAddr, "soak", fmt.Sprintf("k%d", i%200), fmt.Sprintf("v%d", i))
		cancel()
		l.count(err, &l.counts.Writes, &l.counts.WriteErrors)
	}
}

// reads asks a random member for a random broker's route and a KV value
// every 25 ms.
func (l *load) reads(stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(4, 4))
	for poll.Sleep(25*time.Millisecond, stop) {
		ms := l.members()
		m := ms[rng.IntN(len(ms))]
		topic := "T-" + l.brokers[rng.IntN(len(l.brokers))].registration().BrokerName
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, err := l.nc.GetRoute(ctx, m.ClientAddr, topic)
		l.count(answered(err, remoting.TopicNotExist), &l.counts.Reads, &l.counts.ReadErrors)
		_, err = l.nc.GetKV(ctx, m.ClientAddr, "soak", fmt.Sprintf("k%d", rng.IntN(200)))
		l.count(answered(err, remoting.QueryNotFound), &l.counts.Reads, &l.counts.ReadErrors)
		cancel()
	}
}

// answered drops err when it is the member's "not found" answer: a read
// of a broker churn just renamed, or of a key not written yet.
func answered(err error, notFound int32) error {
	if nsclient.IsCode(err, notFound) {
		return nil
	}
	return err
}

func (l *load) count(err error, ok, failed *atomic.Int64) {
	if err != nil {
		failed.Add(1)
		return
	}
	ok.Add(1)
}
