package main

import (
	"fmt"
	"regexp"
)

// zoneLabel is what a zone label may look like: what a RocketMQ
// address-service subgroup may carry after its dash (nsaddr-<zone>).
var zoneLabel = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// parseZone checks a --zone value; empty means no zone.
func parseZone(v string) (string, error) {
	if v != "" && !zoneLabel.MatchString(v) {
		return v, fmt.Errorf("zone %q: use 1 to 64 letters, digits, '.', '_' or '-'", v)
	}
	return v, nil
}
