// Package layering holds the test that keeps the repository's package graph
// as docs/contributors/architecture.md draws it: every package in a named layer, imports
// only downward, no cycle between top-level folders, no top-level folder
// above a quarter of the non-test code, and only the product binaries in
// cmd/. It has no code of its own.
package layering
