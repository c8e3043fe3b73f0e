package main

import (
	"fmt"
	"time"

	"github.com/raftns/raftns/fsm/state"
)

// maxWatchBuffer bounds the changes queued per watcher.
const maxWatchBuffer = 1 << 16

// validateAuditWatch checks the audit trail's bounds and the watchers'.
func (c *config) validateAuditWatch() error {
	switch {
	case c.AuditMaxRecords < 1 || c.AuditMaxRecords > state.MaxAuditRecords:
		return fmt.Errorf("audit max records %d must be from 1 to %d", c.AuditMaxRecords, state.MaxAuditRecords)
	case c.AuditMaxAge < 0:
		return fmt.Errorf("audit max age %v must not be negative (0: no age bound)", c.AuditMaxAge)
	case c.AuditQueryRate < 1:
		return fmt.Errorf("audit query rate %d must be at least 1", c.AuditQueryRate)
	case c.WatchMaxWatchers < 1:
		return fmt.Errorf("watch max watchers %d must be at least 1", c.WatchMaxWatchers)
	case c.WatchBuffer < 1 || c.WatchBuffer > maxWatchBuffer:
		return fmt.Errorf("watch buffer %d must be from 1 to %d", c.WatchBuffer, maxWatchBuffer)
	case c.WatchMaxAnonymous < 1 || c.WatchMaxAnonymousPerAddr < 1:
		return fmt.Errorf("watch max anonymous %d and per address %d must be at least 1", c.WatchMaxAnonymous, c.WatchMaxAnonymousPerAddr)
	case c.WatchWriteTimeout < 100*time.Millisecond:
		return fmt.Errorf("watch write timeout %v must be at least 100ms", c.WatchWriteTimeout)
	}
	return nil
}
