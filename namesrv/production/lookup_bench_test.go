package production

import (
	"context"
	"testing"
	"time"
)

// BenchmarkRoute_Production asks a loopback production name server every
// time (the cache keeps nothing); BenchmarkRoute_Cached answers from the
// cache. Both decode the route for the caller, as every query does.
func BenchmarkRoute_Production(b *testing.B) {
	benchmarkRoute(b, func(l *Lookup) { l.cache = newAnswerCache(time.Nanosecond, 1, time.Now) })
}

func BenchmarkRoute_Cached(b *testing.B) { benchmarkRoute(b, func(*Lookup) {}) }

func benchmarkRoute(b *testing.B, tune func(*Lookup)) {
	fp := startProduction(b, map[string]string{"P": "broker-prod"})
	l := New(Config{Source: fixed(Source{Addrs: fp.addr})})
	defer l.Close()
	tune(l)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, found, err := l.Route(ctx, "P"); err != nil || !found {
			b.Fatalf("found %v, err %v", found, err)
		}
	}
}
