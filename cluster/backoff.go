package cluster

import (
	"math/rand/v2"
	"time"
)

// jitter returns d plus up to 50% random extra.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration(rand.Int64N(int64(d)/2+1))
}
