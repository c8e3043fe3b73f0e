package remoting

import (
	"sync"
	"time"
)

// refusalWarnEvery is how often the server logs each kind of refused
// request at warning level; refusals in between are counted and the count
// is logged with the next warning. A peer that keeps sending frames the
// server refuses (a broker whose registration outgrew the frame limit
// retries every period) is thus visible at the default level without
// flooding the log.
const refusalWarnEvery = 10 * time.Second

// warnLimit lets one warning through per interval.
type warnLimit struct {
	mu         sync.Mutex
	next       time.Time
	suppressed int
}

// allow reports whether a warning may be logged at now and, if so, how many
// were held back since the last one.
func (w *warnLimit) allow(now time.Time) (bool, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if now.Before(w.next) {
		w.suppressed++
		return false, 0
	}
	n := w.suppressed
	w.next, w.suppressed = now.Add(refusalWarnEvery), 0
	return true, n
}
