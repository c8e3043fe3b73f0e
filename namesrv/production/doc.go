// Package production looks up topic routes in a production environment's
// name servers for a name server in cluster-test mode (the reference's
// clusterTest with productEnvName): a route query for a topic the test
// cluster does not hold is answered with production's route.
//
// Nothing it fetches is written anywhere but its own short, bounded cache:
// each member asks production itself, so every member answers alike
// without replicating production's data. Lookups are bounded by a timeout,
// a limit on how many run at once (beyond it a lookup is refused at once),
// and one lookup per topic at a time (concurrent queries for the same topic
// share it).
package production
