package transport

import "github.com/hashicorp/raft"

// Unpipelined is the network transport with pipelined replication turned
// off: the leader sends one AppendEntries at a time to each follower. It is
// the default (cluster.Config.PipelinedReplication). It never meets the library's
// pipeline stall after a refused append (pipeline.go): a failed
// AppendEntries makes the leader back off and retry.
type Unpipelined struct{ *raft.NetworkTransport }

// AppendEntriesPipeline tells Raft to replicate without a pipeline.
func (Unpipelined) AppendEntriesPipeline(raft.ServerID, raft.ServerAddress) (raft.AppendPipeline, error) {
	return nil, raft.ErrPipelineReplicationNotSupported
}
