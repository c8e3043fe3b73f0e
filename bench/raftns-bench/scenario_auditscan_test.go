package main

import "testing"

func TestAuditScan_SmokeMeasuresBothPhasesOfEachRound(t *testing.T) {
	m := startMember(t, "--audit-max-records", "300")
	args := append([]string{"audit-scan", "-trail", "300", "-duration", "500ms", "-warmup", "100ms", "-rounds", "2",
		"-clients", "2", "-readers", "2", "-query", "who=nobody"}, externalArgs(m)...)
	res := runScenario(t, args...).Results.(auditScanResults)
	if len(res.Phases) != 4 || res.TrailRecords != 300 || res.Ratio <= 0 {
		t.Fatalf("results = %+v, want 4 phases, a trail of 300 and a ratio", res)
	}
	for i, p := range res.Phases {
		if p.Requests == 0 || (p.Readers > 0) != (p.Queries > 0) || p.Round != 1+i/2 {
			t.Fatalf("phase %d = %+v: want writes, and audit queries exactly in the phases with readers", i, p)
		}
	}
	if res.Phases[0].Readers != 0 || res.Phases[2].Readers == 0 {
		t.Fatalf("phases %+v do not alternate which goes first", res.Phases)
	}
}
