package adminapi

// FinalizeResult is the answer to POST /v1/upgrade/finalize.
type FinalizeResult struct {
	// Previous and Current are the cluster version before and after.
	Previous string `json:"previous"`
	Current  string `json:"current"`
	// Members is the release each member reported.
	Members map[string]string `json:"members"`
}
