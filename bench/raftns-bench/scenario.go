package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"
)

// scenario is one benchmark. Its file holds only what is its own: its
// options (bound as flags; shared groups such as loadFlags and roundFlags
// are embedded), their check, the measurement and its tables and notes.
// What every scenario shares is done around it: the common flags, the
// members it needs (scenarioInfo.needs), starting or naming them (env),
// the report's header and its text or JSON output (execute, run).
type scenario interface {
	// bind registers the scenario's own flags.
	bind(fs *flag.FlagSet)
	// check validates the flags; set names the flags given explicitly. It
	// may adjust the common options (for example the member count).
	check(c *commonOptions, set map[string]bool) error
	// run executes the scenario against e and fills r.
	run(ctx context.Context, e *env, r *Report) error
}

// membersNeed is what a scenario needs of the members it loads.
type membersNeed int

const (
	// anyMembers loads running members (-addrs) or members the tool starts.
	anyMembers membersNeed = iota
	// ownMembers are started by the tool: the scenario starts others
	// next to them.
	ownMembers
	// ownThree are three or more members started by the tool (three by
	// default): the scenario kills, stops or restarts one.
	ownThree
)

// scenarioInfo is one entry of the scenario table.
type scenarioInfo struct {
	summary string
	needs   membersNeed
	make    func() scenario
}

var scenarios = map[string]scenarioInfo{
	"route":      {"GET_ROUTEINFO_BY_TOPIC throughput and latency", anyMembers, func() scenario { return &routeScenario{} }},
	"register":   {"REGISTER_BROKER throughput (written or deduplicated)", anyMembers, func() scenario { return &registerScenario{} }},
	"failover":   {"kill the leader: time to the first write and to a ready cluster", ownThree, func() scenario { return &failoverScenario{} }},
	"expiry":     {"time from a broker's last heartbeat to its route disappearing", anyMembers, func() scenario { return &expiryScenario{} }},
	"large":      {"brokers with thousands of topics: body, entry and log size", anyMembers, func() scenario { return &largeScenario{} }},
	"memory":     {"member RSS holding brokers x topics", anyMembers, func() scenario { return &memoryScenario{} }},
	"rejoin":     {"restart a follower after an outage: time to its first entry and to ready", ownThree, func() scenario { return &rejoinScenario{} }},
	"pause":      {"SIGSTOP the leader: how soon waiting forwarded writes are answered by the new leader", ownThree, func() scenario { return &pauseScenario{} }},
	"scale":      {"a large fleet (brokers x topics) and a restart storm, RaftNS next to the reference NameServer", ownThree, func() scenario { return &scaleScenario{} }},
	"compare":    {"RaftNS against raw Raft and a precomputed-answer server, as ratios", ownMembers, func() scenario { return &compareScenario{} }},
	"write":      {"PUT_KV_CONFIG throughput, an audited write (-member-args --audit=false without the trail)", anyMembers, func() scenario { return &writeScenario{} }},
	"audit-scan": {"PUT_KV_CONFIG throughput with and without readers of GET /v1/audit, as a ratio", anyMembers, func() scenario { return &auditScanScenario{} }},
}

// meet checks the common options against what scenario needs, making
// -members default to 3 where it needs three.
func (c *commonOptions) meet(need membersNeed, scenario string, set map[string]bool) error {
	if need != anyMembers && !c.starts() {
		return fmt.Errorf("%w: %s starts its own members (-raftns); -addrs is not allowed", errUsage, scenario)
	}
	if need == ownThree {
		return c.needThreeMembers(set, scenario)
	}
	return nil
}

// needThreeMembers makes -members default to 3 and rejects fewer, for
// what (a scenario, or an option such as -via follower) needs three.
func (c *commonOptions) needThreeMembers(set map[string]bool, what string) error {
	if !set["members"] {
		c.Members = 3
	}
	if c.Members < 3 {
		return fmt.Errorf("%w: %s needs -members 3 or 5", errUsage, what)
	}
	return nil
}

// execute prepares the members, runs the scenario and returns its report.
func execute(ctx context.Context, inv *invocation, progress io.Writer) (*Report, error) {
	e, err := newEnv(ctx, inv.common, progress)
	if err != nil {
		return nil, err
	}
	defer e.close()
	rep := &Report{
		Scenario: inv.name, Started: time.Now().UTC().Truncate(time.Second), Env: currentEnvironment(),
		Settings: map[string]any{"common": inv.common, inv.name: inv.sc, "args": inv.args},
	}
	if err := inv.sc.run(ctx, e, rep); err != nil {
		return nil, err
	}
	rep.Env.LoadEnd = loadAvg()
	for _, m := range e.members {
		rep.Members = append(rep.Members, m.String())
	}
	return rep, nil
}
