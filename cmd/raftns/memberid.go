package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// resolveID returns the member ID: the one stored in the data dir, which
// --id must match if both exist, or --id, or a new random one; it is stored
// on first use so a restart keeps its identity.
func (c *config) resolveID() (string, error) {
	path := filepath.Join(c.DataDir, "node-id")
	stored, err := os.ReadFile(path)
	switch {
	case err == nil:
		id := strings.TrimSpace(string(stored))
		if c.ID != "" && c.ID != id {
			return "", fmt.Errorf("data dir %s belongs to member %q, not %q", c.DataDir, id, c.ID)
		}
		return id, nil
	case !errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("read member id: %w", err)
	}
	id := c.ID
	if id == "" {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		id = "ns-" + hex.EncodeToString(b[:])
	}
	if err := os.MkdirAll(c.DataDir, 0o755); err != nil {
		return "", fmt.Errorf("create data dir: %w", err)
	}
	if err := os.WriteFile(path, []byte(id+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("store member id: %w", err)
	}
	return id, nil
}
