// Package clientport prepares connections to the RocketMQ client port before
// the remoting server reads them, as the 5.x NettyRemotingServer's first
// handlers do: an optional PROXY protocol header (v1 or v2) that names the
// real client behind a load balancer, then TLS according to the server's
// mode (disabled, permissive or enforcing, the reference's tls.server.mode),
// decided by the connection's first byte.
//
// Preparation runs off the accept loop, one goroutine per connection, with
// a deadline and a bound on connections being prepared at once, so a client
// that connects and sends nothing holds neither the listener nor memory
// beyond that bound.
package clientport
