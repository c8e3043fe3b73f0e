// Package deploy holds no code: its tests check the packaging and
// monitoring files in this directory (alert rules with promtool, the
// compose file, the Kubernetes manifests decoded into the API types).
package deploy
