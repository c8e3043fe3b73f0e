// Package fastjson reads and writes JSON the way Alibaba fastjson 1.x does on
// the RocketMQ wire: string escaping in the default and the browser-compatible
// ("standard JSON") serializer configurations, append-style writers for Java
// values, map keys in Java String order, and a lenient pull lexer with
// fastjson's default parser features (unquoted and numeric keys, single
// quotes, extra commas, the \x, \v and octal escapes) under size and depth
// limits. It imports nothing from this module, so that protocol/remoting
// (JSON headers) and protocol/body (bodies) share it without depending on
// each other. Its readers return an error, never a panic, on any input.
package fastjson
