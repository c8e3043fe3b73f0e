package cluster

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// OfficeHook is told when this member takes office as the leader and when
// it leaves it (docs/contributors/design.md, "Taking office"): the place for duties of
// the leader in office that live outside this package, such as the
// controller's master scan.
type OfficeHook interface {
	// TakeOffice runs once the leader is ready, or at registration when
	// the member is already in office. It must not block: a duty that
	// lasts the term runs on a goroutine it starts.
	TakeOffice(o Office)
	// LeaveOffice runs when the term of office ends, before the leader
	// loop is done; it returns once what TakeOffice started has stopped.
	LeaveOffice()
}

// Office is one term of office of this member as the leader, as a hook
// sees it.
type Office struct {
	n     *Node
	epoch uint64
	// closes is the hook's own signal of broker connection closes.
	closes <-chan struct{}
}

// Epoch identifies the term of office: the Raft index at which it began.
func (o Office) Epoch() uint64 { return o.epoch }

// Held reports whether this member is still the leader in this term of
// office; a duty checks it before each decision it proposes.
func (o Office) Held() bool {
	return o.epoch != 0 && o.n.LeaderReady() && o.n.lessor.Epoch() == o.epoch
}

// VerifyLeader confirms with a quorum that this member still leads.
func (o Office) VerifyLeader() error { return o.n.raft.VerifyLeader().Error() }

// ApplyTimeout bounds one proposal of the leader's own (Config.ApplyTimeout).
func (o Office) ApplyTimeout() time.Duration { return o.n.cfg.ApplyTimeout }

// ConnClosed receives when a broker's last connection to this member
// closed or a member reported closes in its heartbeat batch: liveness may
// have changed. Signals coalesce, and one sent out of office waits for the
// next term.
func (o Office) ConnClosed() <-chan struct{} { return o.closes }

// OnOffice registers h under name, replacing the hook registered under it
// before (which leaves office first if it is in office). A hook registered
// while this member is in office takes office at once.
func (n *Node) OnOffice(name string, h OfficeHook) { n.offices.register(n, name, h) }

// officeHooks holds the registered hooks and the term of office they are in.
type officeHooks struct {
	// mu serialises registering, taking and leaving office.
	mu    sync.Mutex
	hooks map[string]*officeHook
	// epoch is the current term of office, 0 while not in office.
	epoch uint64
	// signals are the hooks' ConnClosed channels, read without mu.
	signals atomic.Pointer[[]chan struct{}]
}

type officeHook struct {
	hook   OfficeHook
	closes chan struct{}
}

func (o *officeHooks) register(n *Node, name string, h OfficeHook) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.hooks == nil {
		o.hooks = map[string]*officeHook{}
	}
	hook := &officeHook{hook: h, closes: make(chan struct{}, 1)}
	if old := o.hooks[name]; old != nil {
		// The replacement inherits a signal still pending.
		hook.closes = old.closes
		if o.epoch != 0 {
			old.hook.LeaveOffice()
		}
	}
	o.hooks[name] = hook
	signals := make([]chan struct{}, 0, len(o.hooks))
	for _, hk := range o.hooks {
		signals = append(signals, hk.closes)
	}
	o.signals.Store(&signals)
	if o.epoch != 0 {
		h.TakeOffice(Office{n: n, epoch: o.epoch, closes: hook.closes})
	}
}

// take has every hook take office for the term that began at epoch and
// returns what has them leave it.
func (o *officeHooks) take(n *Node, epoch uint64) (leave func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.epoch = epoch
	for _, name := range o.namesLocked() {
		hk := o.hooks[name]
		hk.hook.TakeOffice(Office{n: n, epoch: epoch, closes: hk.closes})
	}
	return o.leave
}

func (o *officeHooks) leave() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.epoch = 0
	for _, name := range o.namesLocked() {
		o.hooks[name].hook.LeaveOffice()
	}
}

func (o *officeHooks) namesLocked() []string {
	names := make([]string, 0, len(o.hooks))
	for name := range o.hooks {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// connClosed signals every hook that a broker connection closed.
func (o *officeHooks) connClosed() {
	signals := o.signals.Load()
	if signals == nil {
		return
	}
	for _, ch := range *signals {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
