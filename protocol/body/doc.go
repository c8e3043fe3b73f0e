// Package body encodes and decodes the bodies of RocketMQ NameServer
// requests and responses byte for byte as the Java NameServer's fastjson 1.x
// does: route data in the default and the "standard JSON" flavour, cluster
// info, topic lists, KV tables, broker member groups, data versions, the
// Java properties text of the configuration requests, and the
// REGISTER_BROKER body in its plain JSON and zlib-compressed binary forms.
// Decoders are tolerant in the way fastjson's parser is (unquoted and numeric
// keys, single quotes, extra commas, scalars where strings are expected), and
// they return an error, never a panic, on any input.
package body
