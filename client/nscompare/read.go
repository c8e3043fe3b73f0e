package nscompare

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/magiconair/properties"
	"golang.org/x/sync/errgroup"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// comparedSettings are the name server settings that change what brokers
// and clients are told. They are compared when every name server reports
// them; the others (ports, paths, thread counts) may rightly differ.
var comparedSettings = []string{
	"orderMessageEnable", "returnOrderTopicConfigToBroker", "enableAllTopicList", "enableTopicList",
	"supportActingMaster", "deleteTopicWithBrokerRegistration", "notifyMinBrokerIdChanged",
}

// reader sends the requests of one comparison.
type reader struct {
	c       *nsclient.Client
	timeout time.Duration
}

// call runs one request under the request timeout and sends it once more
// when it failed without an answer. Errors name the server and what was
// asked, and wrap the cause (a *nsclient.ResponseError for an answer).
func (r reader) call(ctx context.Context, addr, what string, f func(ctx context.Context) error) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		rctx, cancel := context.WithTimeout(ctx, r.timeout)
		err = f(rctx)
		cancel()
		var answer *nsclient.ResponseError
		if err == nil || errors.As(err, &answer) || ctx.Err() != nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("name server %s: %s: %w", addr, what, err)
	}
	return nil
}

// serverState is what one name server holds, compactly: no route is kept.
type serverState struct {
	addr    string
	brokers []broker
	// topics is the topic list until it is merged with the others.
	topics     []string
	topicCount int
	kv         map[string]map[string]string // namespace -> key -> value
	settings   map[string]string            // comparedSettings the server reports
	// perm counts writable queues per broker group, filled as routes are read.
	mu   sync.Mutex
	perm map[string]*tally
}

// parts selects what readState reads besides the KV namespaces.
type parts struct{ cluster, topics, settings bool }

var allParts = parts{cluster: true, topics: true, settings: true}

// readStates reads every server concurrently.
func (r reader) readStates(ctx context.Context, servers, namespaces []string, p parts) ([]*serverState, error) {
	states := make([]*serverState, len(servers))
	g, gctx := errgroup.WithContext(ctx)
	for i, addr := range servers {
		g.Go(func() error {
			s, err := r.readState(gctx, addr, namespaces, p)
			states[i] = s
			return err
		})
	}
	return states, g.Wait()
}

// readState reads one server's cluster table, topic list, KV namespaces
// and settings.
func (r reader) readState(ctx context.Context, addr string, namespaces []string, p parts) (*serverState, error) {
	s := &serverState{addr: addr, kv: map[string]map[string]string{}, perm: map[string]*tally{}}
	if p.cluster {
		if err := r.call(ctx, addr, "cluster info", func(ctx context.Context) error { return s.readCluster(ctx, r.c) }); err != nil {
			return nil, err
		}
	}
	if p.topics {
		err := r.call(ctx, addr, "topic list", func(ctx context.Context) (err error) {
			s.topics, err = r.c.GetAllTopics(ctx, addr)
			return err
		})
		if err != nil {
			return nil, err
		}
		s.topicCount = len(s.topics)
	}
	for _, ns := range namespaces {
		if err := r.readNamespace(ctx, s, ns); err != nil {
			return nil, err
		}
	}
	if p.settings {
		if err := r.call(ctx, addr, "name server config", func(ctx context.Context) error { return s.readSettings(ctx, r.c) }); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *serverState) readCluster(ctx context.Context, c *nsclient.Client) error {
	ci, err := c.GetClusterInfo(ctx, s.addr)
	if err != nil {
		return err
	}
	s.brokers = s.brokers[:0]
	for name, bd := range ci.BrokerAddrTable {
		for id, addr := range bd.BrokerAddrs {
			s.brokers = append(s.brokers, broker{cluster: bd.Cluster, name: name, addr: addr, zone: bd.ZoneName,
				id: id, actingMaster: bd.EnableActingMaster})
		}
	}
	return nil
}

// readNamespace reads one KV namespace; one the server does not have
// (QUERY_NOT_FOUND) holds no keys.
func (r reader) readNamespace(ctx context.Context, s *serverState, ns string) error {
	var table map[string]string
	err := r.call(ctx, s.addr, "KV namespace "+ns, func(ctx context.Context) (err error) {
		table, err = r.c.GetKVList(ctx, s.addr, ns)
		return err
	})
	if nsclient.IsCode(err, remoting.QueryNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	s.kv[ns] = table
	return nil
}

func (s *serverState) readSettings(ctx context.Context, c *nsclient.Client) error {
	text, err := c.GetNamesrvConfig(ctx, s.addr)
	if err != nil {
		return err
	}
	// Values are taken literally: Java does not expand ${...} in them.
	p, err := (&properties.Loader{Encoding: properties.UTF8, DisableExpansion: true}).LoadBytes(text)
	if err != nil {
		return fmt.Errorf("unreadable properties: %w", err)
	}
	s.settings = map[string]string{}
	for _, k := range comparedSettings {
		if v, ok := p.Get(k); ok {
			s.settings[k] = strings.ToLower(strings.TrimSpace(v))
		}
	}
	return nil
}

// countQueues adds one route's queues to the per-group tallies.
func (s *serverState) countQueues(queues []queue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range queues {
		t := s.perm[q.broker]
		if t == nil {
			t = &tally{}
			s.perm[q.broker] = t
		}
		t.topics++
		if q.writable() {
			t.writable++
		}
	}
}

// summary counts what the server holds.
func (s *serverState) summary(target bool) Summary {
	keys := 0
	for _, table := range s.kv {
		keys += len(table)
	}
	return Summary{Server: s.addr, Target: target, Brokers: len(s.brokers), Topics: s.topicCount, KVKeys: keys}
}
