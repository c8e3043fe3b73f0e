package cluster

import "time"

// clockOr is clock, or time.Now when it is nil.
func clockOr(clock func() time.Time) func() time.Time {
	if clock == nil {
		return time.Now
	}
	return clock
}

// pauseGap is the longest time between two expiry scans of the leader that
// is not taken for a pause of the member: two scan intervals and the
// longest a scan's proposals may take. After a longer gap the leases
// restart rather than expire what the member did not hear while it was
// stopped (docs/contributors/design.md, "Time").
func pauseGap(cfg *Config) time.Duration {
	return 2*cfg.ScanInterval + cfg.ApplyTimeout
}
