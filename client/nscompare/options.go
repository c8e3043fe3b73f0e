package nscompare

import (
	"errors"
	"fmt"
	"time"
)

// Defaults of Options.
const (
	// DefaultNamespace is the KV namespace every RocketMQ name server uses
	// (NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG).
	DefaultNamespace      = "ORDER_TOPIC_CONFIG"
	DefaultConcurrency    = 16
	DefaultRequestTimeout = 3 * time.Second
	// MaxConcurrency bounds Options.Concurrency.
	MaxConcurrency = 256
)

// ErrOptions means the options or the name server lists cannot be used.
var ErrOptions = errors.New("nscompare: bad options")

// Options bound a comparison.
type Options struct {
	// Namespaces are the KV namespaces read; empty means DefaultNamespace.
	// The protocol has no request that lists namespaces.
	Namespaces []string
	// Concurrency is how many topics (or brokers) are read at once; each
	// read sends one request at a time, so it is also the most requests in
	// flight to each name server. 0 means DefaultConcurrency.
	Concurrency int
	// RequestTimeout bounds each request; 0 means DefaultRequestTimeout.
	// A request that fails without an answer (timeout, broken connection)
	// is sent once more before the comparison fails.
	RequestTimeout time.Duration
	// DataVersions asks every name server for every broker's DataVersion.
	// Name servers count that request as a heartbeat of the broker, so a
	// broker that hangs stays registered for one more expiry period.
	DataVersions bool
	// MaxDifferences is how many differences of each kind a Result keeps,
	// those first by subject (0: all); the others are only counted.
	MaxDifferences int
	// Progress, when set, is called from one goroutine while routes are
	// read, a few times a second and once at the end of each stage.
	Progress func(stage string, done, total int)
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if len(o.Namespaces) == 0 {
		o.Namespaces = []string{DefaultNamespace}
	}
	if o.Concurrency == 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	return o
}

// check refuses options that cannot be used and server lists that are
// empty or name a server twice.
func (o Options) check(refs, targets []string) error {
	switch {
	case len(refs) == 0:
		return fmt.Errorf("%w: no name server to compare", ErrOptions)
	case o.Concurrency < 1 || o.Concurrency > MaxConcurrency:
		return fmt.Errorf("%w: concurrency %d: want 1 to %d", ErrOptions, o.Concurrency, MaxConcurrency)
	case o.RequestTimeout < 0:
		return fmt.Errorf("%w: request timeout %v: must be positive", ErrOptions, o.RequestTimeout)
	case o.MaxDifferences < 0:
		return fmt.Errorf("%w: max differences %d: must not be negative", ErrOptions, o.MaxDifferences)
	}
	seen := map[string]bool{}
	for _, s := range append(append([]string(nil), refs...), targets...) {
		if s == "" {
			return fmt.Errorf("%w: empty name server address", ErrOptions)
		}
		if seen[s] {
			return fmt.Errorf("%w: name server %s is listed twice", ErrOptions, s)
		}
		seen[s] = true
	}
	for _, ns := range o.Namespaces {
		if ns == "" {
			return fmt.Errorf("%w: empty namespace name", ErrOptions)
		}
	}
	return nil
}
