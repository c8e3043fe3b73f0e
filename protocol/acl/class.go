package acl

// Class is the access a request code needs. The server's request table
// gives every code it serves one; this package keeps no list of codes.
// The zero Class is no class: the request table refuses a row without one,
// and Check treats it as the strictest class.
type Class uint8

const (
	_ Class = iota
	// Read only reads: checked in mode All alone.
	Read
	// BrokerRead is a read brokers send (QUERY_DATA_VERSION): in mode All
	// it also passes unsigned from the broker allow-list.
	BrokerRead
	// BrokerWrite is a state change brokers send (registration,
	// unregistration, heartbeat): it also passes unsigned from the broker
	// allow-list. 4.x brokers cannot sign these, their name-server client
	// having no ACL hook.
	BrokerWrite
	// Write is a state change any account may sign, which the broker
	// allow-list does not cover (the RocketMQ 5 controller requests a
	// broker in controller mode sends).
	Write
	// AdminWrite changes state an operator owns: it needs an admin account.
	AdminWrite
)

// need is what a class asks of a request.
type need struct {
	write   bool // checked in mode Writes too
	brokers bool // the broker allow-list may pass it unsigned
	admin   bool // only an admin account may sign it
}

var needs = [...]need{
	Read:        {},
	BrokerRead:  {brokers: true},
	BrokerWrite: {write: true, brokers: true},
	Write:       {write: true},
	AdminWrite:  {write: true, admin: true},
}

// Valid reports whether k is one of the classes above.
func (k Class) Valid() bool { return k > 0 && int(k) < len(needs) }

// need returns what k asks; a class that is not valid asks the most.
func (k Class) need() need {
	if !k.Valid() {
		return needs[AdminWrite]
	}
	return needs[k]
}

func (k Class) String() string {
	if !k.Valid() {
		return "no class"
	}
	return [...]string{Read: "read", BrokerRead: "broker read", BrokerWrite: "broker write",
		Write: "write", AdminWrite: "admin write"}[k]
}
