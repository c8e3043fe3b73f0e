package production

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
	"golang.org/x/sync/singleflight"
)

// Defaults of Config.
const (
	// DefaultTimeout is below the 3 s Java clients wait for a route, so
	// they see this member's error rather than their own timeout.
	DefaultTimeout       = 2 * time.Second
	DefaultMaxConcurrent = 16
	DefaultCacheTTL      = 3 * time.Second
	DefaultMaxCached     = 4096
)

// Config configures a Lookup; zero values take the defaults.
type Config struct {
	// Source is read at every lookup; nil means ErrNotConfigured.
	Source func() Source
	// Timeout bounds one lookup: the address service and every name
	// server it tries.
	Timeout time.Duration
	// MaxConcurrent bounds the lookups under way at once (each for a
	// different topic); one beyond it is refused at once.
	MaxConcurrent int
	// CacheTTL is how long an answer (a route, or that production does
	// not know the topic) is reused; MaxCached bounds how many are kept.
	CacheTTL  time.Duration
	MaxCached int
	Logger    hclog.Logger
}

// Lookup asks production's name servers for routes; it is safe for
// concurrent use and implements namesrv.ProductionRoutes.
type Lookup struct {
	cfg     Config
	book    *addressBook
	client  *nsclient.Client
	sem     chan struct{}
	flight  singleflight.Group
	cache   *answerCache
	metrics *Metrics
	next    atomic.Uint32 // the address a lookup tries first
	failing atomic.Bool   // the last lookup could not reach production
	closeMu sync.Once
}

// New returns a Lookup; Close releases its connections.
func New(cfg Config) *Lookup {
	// A value that is not positive takes the default.
	cfg.Timeout = cmp.Or(max(cfg.Timeout, 0), DefaultTimeout)
	cfg.MaxConcurrent = cmp.Or(max(cfg.MaxConcurrent, 0), DefaultMaxConcurrent)
	cfg.CacheTTL = cmp.Or(max(cfg.CacheTTL, 0), DefaultCacheTTL)
	cfg.MaxCached = cmp.Or(max(cfg.MaxCached, 0), DefaultMaxCached)
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	if cfg.Source == nil {
		cfg.Source = func() Source { return Source{} }
	}
	rc := remoting.DefaultClientConfig()
	rc.DialTimeout = min(rc.DialTimeout, cfg.Timeout)
	return &Lookup{
		cfg:     cfg,
		book:    &addressBook{http: &http.Client{}, now: time.Now},
		client:  nsclient.New(rc),
		sem:     make(chan struct{}, cfg.MaxConcurrent),
		cache:   newAnswerCache(cfg.CacheTTL, cfg.MaxCached, time.Now),
		metrics: newMetrics(),
	}
}

// Metrics returns the lookups' Prometheus collector.
func (l *Lookup) Metrics() *Metrics { return l.metrics }

// Close closes the connections to production.
func (l *Lookup) Close() error {
	var err error
	l.closeMu.Do(func() { err = l.client.Close() })
	return err
}

// errUndecodable is a route answer that does not decode.
var errUndecodable = errors.New("undecodable route")

// answer is what production said of a topic: its encoded route, or nil
// when it does not know the topic.
type answer struct{ route []byte }

// Route returns production's route of topic, found false when production
// does not know it either. A busy refusal wraps namesrv.ErrProductionBusy.
func (l *Lookup) Route(ctx context.Context, topic string) (*state.TopicRouteData, bool, error) {
	a, ok := l.cache.get(topic)
	if ok {
		l.metrics.cacheHits.Inc()
	} else {
		ch := l.flight.DoChan(topic, func() (any, error) { return l.ask(topic) })
		select {
		case r := <-ch:
			if r.Err != nil {
				return nil, false, r.Err
			}
			a = r.Val.(answer)
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
	if a.route == nil {
		return nil, false, nil
	}
	// Decoded afresh for each caller, who may change it (zone filtering).
	route, err := body.DecodeTopicRouteData(a.route)
	return route, err == nil, err
}

// ask runs one lookup of topic against production, within the limits.
func (l *Lookup) ask(topic string) (answer, error) {
	select {
	case l.sem <- struct{}{}:
		defer func() { <-l.sem }()
	default:
		l.metrics.lookups.WithLabelValues("busy").Inc()
		return answer{}, fmt.Errorf("%w (%d at once)", namesrv.ErrProductionBusy, l.cfg.MaxConcurrent)
	}
	l.metrics.inFlight.Inc()
	defer l.metrics.inFlight.Dec()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.Timeout)
	defer cancel()
	a, err := l.askProduction(ctx, topic)
	l.metrics.duration.Observe(time.Since(start).Seconds())
	switch {
	case err != nil:
		l.metrics.lookups.WithLabelValues("error").Inc()
		if !l.failing.Swap(true) {
			l.cfg.Logger.Warn("cluster-test mode: production name servers cannot be reached", "error", err)
		}
		return answer{}, err
	case a.route == nil:
		l.metrics.lookups.WithLabelValues("not_found").Inc()
	default:
		l.metrics.lookups.WithLabelValues("found").Inc()
	}
	if l.failing.Swap(false) {
		l.cfg.Logger.Info("cluster-test mode: production name servers answer again")
	}
	l.cache.put(topic, a)
	return a, nil
}

// askProduction asks production's name servers in turn until one answers.
func (l *Lookup) askProduction(ctx context.Context, topic string) (answer, error) {
	src := l.cfg.Source()
	env := strings.TrimSpace(src.EnvName)
	addrs, err := l.book.resolve(ctx, src)
	if err != nil {
		return answer{}, fmt.Errorf("production environment %q: %w", env, err)
	}
	first := int(l.next.Add(1))
	var lastErr error
	for i := range addrs {
		addr := addrs[(first+i)%len(addrs)]
		if ctx.Err() != nil {
			break
		}
		a, err := l.askOne(ctx, addr, topic)
		if err == nil {
			return a, nil
		}
		var re *nsclient.ResponseError
		switch {
		case errors.As(err, &re):
			return answer{}, fmt.Errorf("production name server %s answered code %d: %s", addr, re.Code, re.Remark)
		case errors.Is(err, errUndecodable):
			return answer{}, fmt.Errorf("production name server %s: %w", addr, err)
		}
		lastErr = fmt.Errorf("%s: %w", addr, err)
	}
	if ctx.Err() != nil {
		lastErr = fmt.Errorf("no answer within %v: %w", l.cfg.Timeout, errors.Join(lastErr, ctx.Err()))
	}
	return answer{}, fmt.Errorf("production name servers of environment %q (%s) unreachable: %w",
		env, strings.Join(addrs, ";"), lastErr)
}

// askOne sends GET_ROUTEINFO_BY_TOPIC to one production name server.
func (l *Lookup) askOne(ctx context.Context, addr, topic string) (answer, error) {
	req := &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: nsclient.Version5,
		ExtFields: map[string]string{"topic": topic}}
	resp, err := l.client.Invoke(ctx, addr, req)
	if nsclient.IsCode(err, remoting.TopicNotExist) {
		return answer{}, nil
	}
	if err != nil {
		return answer{}, err
	}
	if _, err := body.DecodeTopicRouteData(resp.Body); err != nil {
		return answer{}, fmt.Errorf("%w: %v", errUndecodable, err)
	}
	return answer{route: resp.Body}, nil
}
