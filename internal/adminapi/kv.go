package adminapi

// KV is one key of a KV config namespace with its value (GET
// /v1/kv/{namespace}/{key}).
type KV struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Value     string `json:"value"`
}
