package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/raftns/raftns/internal/adminapi"
)

// noZone names, in warnings, the voters that carry no zone label.
const noZone = "(no zone)"

// placementWarning checks the voters' zones (docs/operators/operations.md,
// "Several zones"): a cluster survives the loss of any one zone when,
// for every zone, the voters outside it are still a majority of all
// voters. It returns why not, naming each zone whose loss would stop
// writes, or "" when the placement survives or no member has a zone.
func placementWarning(peers []adminapi.PeerStatus) string {
	labelled := false
	perZone := map[string]int{}
	voters := 0
	for _, p := range peers {
		labelled = labelled || p.Zone != ""
		if p.Suffrage != "Voter" {
			continue
		}
		voters++
		zone := p.Zone
		if zone == "" {
			zone = noZone
		}
		perZone[zone]++
	}
	if !labelled || voters == 0 {
		return ""
	}
	quorum := voters/2 + 1
	var fatal []string
	for zone, n := range perZone {
		if voters-n < quorum {
			fatal = append(fatal, fmt.Sprintf("%s (%d of %d voters)", zone, n, voters))
		}
	}
	if len(fatal) == 0 {
		return ""
	}
	sort.Strings(fatal)
	return fmt.Sprintf("warning: losing zone %s leaves fewer than the %d voters a write needs; "+
		"spread the voters so that no zone holds %d or more (see \"Several zones\" in docs/operators/operations.md)",
		strings.Join(fatal, " or zone "), quorum, voters-quorum+1)
}
