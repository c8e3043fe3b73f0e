// Package docs checks that what README.md and docs/ show works as written:
// every fenced block names its kind, shell blocks interpret cleanly, make
// targets exist, repository paths resolve, and every configuration sample
// parses with the loader that reads it. The raftns and raftnsctl command
// lines and raftns configuration samples are checked by the tests of
// cmd/raftns and cmd/raftnsctl, with the programs' own parsers.
package docs
