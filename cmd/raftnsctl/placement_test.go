package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/adminapi"
)

// zonedPeers lists voters and non-voters, each "id:zone:V" or "id:zone:N".
func zonedPeers(specs ...string) []adminapi.PeerStatus {
	var out []adminapi.PeerStatus
	for _, s := range specs {
		f := strings.Split(s, ":")
		suffrage := "Voter"
		if f[2] == "N" {
			suffrage = "Nonvoter"
		}
		out = append(out, adminapi.PeerStatus{ID: f[0], Address: f[0] + ":9866", Zone: f[1], Suffrage: suffrage, Reachable: true, Ready: true})
	}
	return out
}

func TestPlacementWarning_NamesEachZoneWhoseLossStopsWrites(t *testing.T) {
	for _, tc := range []struct {
		name  string
		peers []adminapi.PeerStatus
		want  []string // substrings; none means no warning
	}{
		{"no zones at all", zonedPeers("n1::V", "n2::V", "n3::V"), nil},
		{"three zones, one voter each", zonedPeers("n1:a:V", "n2:b:V", "n3:c:V"), nil},
		{"two sites and a witness", zonedPeers("n1:a:V", "n2:a:V", "n3:b:V", "n4:b:V", "n5:w:V"), nil},
		{"voters in zone a, readers in zone b", zonedPeers("n1:a:V", "n2:a:V", "n3:a:V", "n4:b:N", "n5:b:N"),
			[]string{"zone a (3 of 3 voters)", "the 2 voters a write needs", "holds 2 or more"}},
		{"two sites only", zonedPeers("n1:a:V", "n2:a:V", "n3:b:V"), []string{"zone a (2 of 3 voters)"}},
		{"two sites of two", zonedPeers("n1:a:V", "n2:a:V", "n3:b:V", "n4:b:V"),
			[]string{"zone a (2 of 4 voters) or zone b (2 of 4 voters)"}},
		{"an unlabelled voter counts as a zone of its own", zonedPeers("n1:a:V", "n2::V", "n3::V"),
			[]string{"zone (no zone) (2 of 3 voters)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := placementWarning(tc.peers)
			if len(tc.want) == 0 {
				if got != "" {
					t.Fatalf("warning %q, want none", got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Fatalf("warning %q lacks %q", got, w)
				}
			}
		})
	}
}

func TestPrintPeers_ZoneColumnOnlyWhenAMemberHasAZone(t *testing.T) {
	var plain, zoned bytes.Buffer
	if err := printPeers(&plain, zonedPeers("n1::V")); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "ZONE") {
		t.Fatalf("a cluster without zones shows a zone column:\n%s", plain.String())
	}
	if err := printPeers(&zoned, zonedPeers("n1:a:V", "n2::N")); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(zoned.String(), "\n")
	if f := strings.Fields(lines[0]); f[3] != "ZONE" {
		t.Fatalf("header %q", lines[0])
	}
	if f := strings.Fields(lines[1]); f[3] != "a" {
		t.Fatalf("row %q", lines[1])
	}
	if f := strings.Fields(lines[2]); f[3] != "-" {
		t.Fatalf("row %q", lines[2])
	}
}
