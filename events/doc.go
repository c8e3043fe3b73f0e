// Package events keeps the last few hundred things that happened to a
// member's view of the cluster — broker registrations, unregistrations and
// expiries, leader changes, membership changes — in a bounded in-memory
// ring for the status page. Nothing here is replicated or persisted: each
// member records what it saw itself.
package events
