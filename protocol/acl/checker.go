package acl

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Mode says which requests need a valid signature.
type Mode int

const (
	// Off checks nothing (the reference NameServer's behaviour).
	Off Mode = iota
	// Writes checks every code that changes state.
	Writes
	// All checks every code.
	All
)

// ParseMode reads off, writes or all.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "off":
		return Off, nil
	case "writes":
		return Writes, nil
	case "all":
		return All, nil
	}
	return Off, fmt.Errorf("acl mode %q is not off, writes or all", s)
}

func (m Mode) String() string { return [...]string{"off", "writes", "all"}[m] }

// Denial reasons, the label of the refusal counter.
const (
	ReasonUnsigned     = "unsigned"
	ReasonUnknownKey   = "unknown_access_key"
	ReasonBadSignature = "bad_signature"
	ReasonNotAdmin     = "not_admin"
)

// Reasons lists every denial reason, for metrics.
var Reasons = []string{ReasonUnsigned, ReasonUnknownKey, ReasonBadSignature, ReasonNotAdmin}

// Checker decides whether a request may be served. It is safe for
// concurrent use.
type Checker struct {
	mode     Mode
	accounts *Accounts
	brokers  addressRule
	denied   map[string]*atomic.Uint64
}

// NewChecker returns a checker; accounts may be nil only in mode Off.
func NewChecker(mode Mode, accounts *Accounts, brokerAddrs []string) (*Checker, error) {
	if mode != Off && accounts == nil {
		return nil, fmt.Errorf("acl mode %s needs an accounts file", mode)
	}
	brokers, err := ParseAddrList(brokerAddrs)
	if err != nil {
		return nil, fmt.Errorf("acl broker addresses: %w", err)
	}
	c := &Checker{mode: mode, accounts: accounts, brokers: brokers, denied: map[string]*atomic.Uint64{}}
	for _, r := range Reasons {
		c.denied[r] = new(atomic.Uint64)
	}
	return c, nil
}

// Mode returns the checker's mode.
func (c *Checker) Mode() Mode { return c.mode }

// Denied returns the refusals so far by reason.
func (c *Checker) Denied() map[string]uint64 {
	out := map[string]uint64{}
	for r, n := range c.denied {
		out[r] = n.Load()
	}
	return out
}

// Check decides on a request with code, of access class, with header
// fields ext and body from remote (host:port). It returns "" when the
// request may be served, else the remark for the NO_PERMISSION answer, and
// counts the refusal.
func (c *Checker) Check(code int32, class Class, ext map[string]string, body []byte, remote string) string {
	_, remark := c.Decide(code, class, ext, body, remote)
	return remark
}

// Decide is Check that also names the account the request proved to be
// from: its AccessKey when a signature (or the account's white address)
// vouched for it, "" when nothing was checked or no account was needed
// (a global white address, an unsigned broker).
func (c *Checker) Decide(code int32, class Class, ext map[string]string, body []byte, remote string) (who, remark string) {
	if c == nil || c.mode == Off {
		return "", ""
	}
	need := class.need()
	if c.mode == Writes && !need.write {
		return "", ""
	}
	ip := remoteIP(remote)
	for _, g := range c.accounts.globalWhite {
		if g.match(ip) {
			return "", ""
		}
	}
	ak := ext[FieldAccessKey]
	if ak == "" {
		if need.brokers && c.brokers.match(ip) {
			return "", ""
		}
		return "", c.deny(ReasonUnsigned, code, "request is not signed: this name server requires RocketMQ ACL credentials (AccessKey and Signature) for it")
	}
	acc, ok := c.accounts.byKey[ak]
	if !ok {
		return "", c.deny(ReasonUnknownKey, code, fmt.Sprintf("no account for AccessKey %q", ak))
	}
	white, hasWhite := c.accounts.whites[ak]
	if !(hasWhite && white.match(ip)) && !validSignature(ext, body, acc.SecretKey) {
		return "", c.deny(ReasonBadSignature, code, fmt.Sprintf("signature check failed for AccessKey %q", ak))
	}
	if need.admin && !acc.Admin {
		return "", c.deny(ReasonNotAdmin, code, fmt.Sprintf("AccessKey %q is not an admin account, which request code %d needs", ak, code))
	}
	return ak, ""
}

func (c *Checker) deny(reason string, code int32, msg string) string {
	c.denied[reason].Add(1)
	return fmt.Sprintf("raftns acl (%s mode): request code %d refused: %s", c.mode, code, msg)
}
