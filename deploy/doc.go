// Package deploy holds the packaging and monitoring files in this
// directory and renders the Helm chart (RenderChart) for tests; its tests
// check every file (alert rules with promtool, the compose file, the
// Kubernetes manifests and the rendered chart decoded into the API types).
package deploy
