// Package acl is optional access control on the RocketMQ port. It verifies
// the signature that RocketMQ's ACL client hook adds to a request (the
// AccessKey, Signature and optional SecurityToken header fields) against
// accounts kept in a file shaped like the reference broker's plain_acl.yml,
// and decides whether a request needs a signature, or an admin account,
// from its access Class. The package keeps no list of request codes: the
// server's request table gives every code it serves its class.
//
// The signed content, as the reference client computes it: the values of
// every header field except Signature, in the order of their names (Java
// TreeMap, which for ASCII names is byte order), concatenated, followed by
// the body; signed with HMAC-SHA1 under the account's secret key and
// encoded as standard Base64.
package acl
