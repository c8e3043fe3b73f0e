package chaos

import (
	"fmt"
	"time"
)

// ownWriteMisses checks read-your-writes on each member: a member that
// answered a write with success shows it in every local read it answers
// after that answer. For every local read r on member M and every
// acknowledged write w of the same key taken by M that returned before r
// was invoked, r must show w's effect or that of a write that may have
// taken effect after w (invoked before r returned, and not certainly
// finished before w began; an unknown write may land at any time after its
// invocation). It returns the reads that fail, the reads checked (those
// after at least one such write) and a description of the first few.
func ownWriteMisses(h *history) (misses, checked int, examples []string) {
	eachLocalRead(h, func(r event, ws []event) {
		seen := false
		for _, w := range ws {
			if w.Out.Unknown || w.In.Member != r.In.Member || w.Return >= r.Call {
				continue
			}
			if !seen {
				seen = true
				checked++
			}
			if !showsOrLater(r, w, ws) {
				misses++
				if len(examples) < 3 {
					examples = append(examples, fmt.Sprintf("own write not shown at %.3fs: %s after %s",
						time.Duration(r.Call).Seconds(), model.DescribeOperation(r.In, r.Out), model.DescribeOperation(w.In, w.Out)))
				}
				return
			}
		}
	})
	return misses, checked, examples
}

// showsOrLater reports whether read r is explained by write w or by a
// write of ws that may have taken effect after w.
func showsOrLater(r, w event, ws []event) bool {
	for _, x := range ws {
		certainlyBefore := !x.Out.Unknown && x.Return < w.Call
		if x.Call > r.Return || certainlyBefore {
			continue
		}
		if explains(x, r) {
			return true
		}
	}
	return false
}
