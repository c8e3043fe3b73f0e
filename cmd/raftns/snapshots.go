package main

import (
	"fmt"
	"strconv"
	"time"
)

// minSnapshotInterval is the shortest snapshot check interval accepted:
// below it the checks would only cost CPU, a snapshot cannot usefully be
// taken more often.
const minSnapshotInterval = 100 * time.Millisecond

// parseCount reads a count of log entries, a positive whole number.
func parseCount(v string) (uint64, error) {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q is not a positive whole number", v)
	}
	return n, nil
}

// validateSnapshots checks the Raft snapshot and log compaction settings.
func (c *config) validateSnapshots() error {
	switch {
	case c.SnapshotInterval < minSnapshotInterval:
		return fmt.Errorf("snapshot interval %v is below %v", c.SnapshotInterval, minSnapshotInterval)
	case c.SnapshotThreshold < 1:
		return fmt.Errorf("snapshot threshold must be at least 1 entry")
	case c.TrailingLogs < 1:
		return fmt.Errorf("trailing logs must be at least 1 entry")
	}
	return nil
}
