// Package nscompare reads RocketMQ name servers over the remoting protocol,
// as mqadmin does, and says where they disagree: the broker addresses of
// the cluster table (GET_BROKER_CLUSTER_INFO), the queues of every topic of
// the topic list (GET_ALL_TOPIC_LIST_FROM_NAMESERVER, then
// GET_ROUTEINFO_BY_TOPIC per topic), the write permission of each broker
// group over all its topics, the keys of chosen KV namespaces
// (GET_KVLIST_BY_NAMESPACE), the settings that shape answers
// (GET_NAMESRV_CONFIG) and, when asked, each broker's DataVersion
// (QUERY_DATA_VERSION).
//
// It works the same on reference NameServers, which share nothing, and on
// the members of a RaftNS cluster, which should all hold the same state.
// Compare checks that every name server holds the same (a report) or that
// target name servers hold everything the reference ones do (a
// verification after a migration). PlanImport and Apply copy KV namespaces
// and wiped write permissions from reference name servers into a target
// with ordinary requests.
//
// Reads are bounded: the routes are read by a fixed number of workers, one
// request per worker at a time, each request under its own timeout, and
// topics are compared one at a time without keeping their routes, so
// memory grows with the number of topic names and of differences kept
// (Options.MaxDifferences), not with the size of the routes. The package
// imports neither the Raft cluster nor the state machine; it only speaks
// the protocol.
package nscompare
