// Package remoting implements the Apache RocketMQ remoting protocol spoken on
// a NameServer's client port: the length-prefixed frame, its JSON (fastjson
// compatible) and ROCKETMQ binary headers, a TCP server that multiplexes
// concurrent requests per connection and matches responses by opaque, and a
// pooled client used by tests, tools and member-to-member calls. It knows
// nothing about routes or Raft; request handling is delegated to a Handler.
package remoting
