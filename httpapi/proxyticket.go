package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/raftns/raftns/cluster"
)

// A follower that proxies a leader-only admin request to the leader's
// admin port vouches for the caller it saw through the cluster port, which
// only members reach (cluster key or TLS): before proxying it asks the
// leader, as a leader call, for a ticket naming the caller's address and
// itself; the proxied request carries only the ticket, in the forwarded
// header. The leader takes from and via from a ticket it issued, once, for
// the same method and path; any other value of the header attributes the
// request to the connection it came on, as if it had not been proxied.

// proxyTicketCall names the leader call that issues tickets.
const proxyTicketCall = "admin-proxy-ticket"

// Bounds of the tickets a leader holds.
const (
	proxyTicketTTL  = time.Minute
	maxProxyTickets = 1024
)

// errTooManyTickets refuses a ticket while maxProxyTickets unexpired ones
// are held.
var errTooManyTickets = errors.New("httpapi: too many proxied admin requests in flight")

// ticketRequest is what a follower vouches for.
type ticketRequest struct {
	From, Via, Method, Path string
}

// ticketAnswer carries the ticket.
type ticketAnswer struct {
	Ticket string
}

// proxyTickets are the tickets a leader issued and not yet redeemed.
type proxyTickets struct {
	mu      sync.Mutex
	issued  map[string]issuedTicket
	timeNow func() time.Time
}

type issuedTicket struct {
	req     ticketRequest
	expires time.Time
}

func newProxyTickets() *proxyTickets {
	return &proxyTickets{issued: map[string]issuedTicket{}, timeNow: time.Now}
}

// issue records req and returns its ticket.
func (p *proxyTickets) issue(_ context.Context, req ticketRequest) (ticketAnswer, error) {
	b := make([]byte, 16)
	rand.Read(b)
	ticket := hex.EncodeToString(b)
	now := p.timeNow()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.issued) >= maxProxyTickets {
		for k, t := range p.issued {
			if now.After(t.expires) {
				delete(p.issued, k)
			}
		}
		if len(p.issued) >= maxProxyTickets {
			return ticketAnswer{}, errTooManyTickets
		}
	}
	p.issued[ticket] = issuedTicket{req: req, expires: now.Add(proxyTicketTTL)}
	return ticketAnswer{Ticket: ticket}, nil
}

// redeem returns what ticket vouches for, once, if it was issued for
// method and path and has not expired.
func (p *proxyTickets) redeem(ticket, method, path string) (ticketRequest, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.issued[ticket]
	if !ok {
		return ticketRequest{}, false
	}
	delete(p.issued, ticket)
	if p.timeNow().After(t.expires) || t.req.Method != method || t.req.Path != path {
		return ticketRequest{}, false
	}
	return t.req, true
}

// vouch asks the leader for a ticket for the caller of a request this
// member is about to proxy; "" when none could be had (the leader then
// attributes the request to this member's connection).
func (s *Server) vouch(ctx context.Context, from, method, path string) string {
	ans, err := s.ticketCall.Call(ctx, ticketRequest{From: from, Via: s.node.ID(), Method: method, Path: path})
	if err != nil {
		s.logger.Warn("proxying an admin request without the caller's address: the leader issued no ticket", "error", err)
		return ""
	}
	return ans.Ticket
}

// registerProxyTickets serves the ticket call on this member (as the
// leader) and keeps the call for proxying (as a follower).
func (s *Server) registerProxyTickets(node *cluster.Node) {
	s.tickets = newProxyTickets()
	s.ticketCall = cluster.NewLeaderCall(node, proxyTicketCall, s.tickets.issue)
}
