package cluster

import "github.com/hashicorp/raft"

// unpipelined is the network transport with pipelined replication turned
// off: the leader sends one AppendEntries at a time to each follower.
//
// hashicorp/raft's pipeline can deadlock when a follower answers an
// AppendEntries with Success=false (it could not store the entries, e.g.
// its disk is full): the pipeline's decoder stops reading, the next send
// blocks for good, and the replication goroutine never ends. Heartbeats go
// on, so the follower never calls an election and never receives another
// entry until the leader changes (hashicorp/raft issue #612). The process
// chaos test hit it after every full-disk fault under load
// (docs/reliability.md). Without the pipeline the same failure makes the
// leader back off and retry, as it does for any failed AppendEntries.
type unpipelined struct{ *raft.NetworkTransport }

// AppendEntriesPipeline tells Raft to replicate without a pipeline.
func (unpipelined) AppendEntriesPipeline(raft.ServerID, raft.ServerAddress) (raft.AppendPipeline, error) {
	return nil, raft.ErrPipelineReplicationNotSupported
}
