package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/raftns/raftns/protocol/remoting"
)

// scaleScenario loads three RaftNS members, and then three reference
// NameServers, with the same large fleet: brokers in master+slave groups,
// topics each on several groups, every broker registering with every name
// server every heartbeat period from one process (shared connections,
// precomputed requests). For each it measures the time to full
// registration, per server RSS, heap and CPU per second of steady
// heartbeats, the topic list and cluster info answers, route reads at
// idle, a snapshot (RaftNS), the restart of one server, and a restart
// storm in which every broker restarts within one period while the reads
// go on. The targets run one after the other, so that they never share
// the CPUs.
type scaleScenario struct {
	scaleShape
	Heartbeat       time.Duration `json:"heartbeat"`
	Conns           int           `json:"conns"`
	FillParallel    int           `json:"fillParallel"`
	RegisterTimeout time.Duration `json:"registerTimeout"`
	Settle          time.Duration `json:"settle"`
	Steady          time.Duration `json:"steady"`
	Readers         int           `json:"readers"`
	ReadRate        float64       `json:"readRate"`
	ReadWindow      time.Duration `json:"readWindow"`
	Targets         []string      `json:"targets"`
	RefClasspath    string        `json:"referenceClasspath,omitempty"`
	RefJVM          []string      `json:"referenceJvm,omitempty"`
}

func (s *scaleScenario) bind(fs *flag.FlagSet) {
	fs.IntVar(&s.Brokers, "brokers", 2000, "brokers (masters and slaves)")
	fs.IntVar(&s.Groups, "groups", 1000, "broker groups (broker names); -brokers/-groups brokers each")
	fs.IntVar(&s.Topics, "topics", 100000, "distinct topics")
	fs.IntVar(&s.Placement, "placement", 8, "groups each topic is on")
	fs.IntVar(&s.Queues, "queues", 8, "read and write queues per topic")
	fs.DurationVar(&s.Heartbeat, "heartbeat", 30*time.Second, "heartbeat period: every broker registers with every name server once per period")
	fs.IntVar(&s.Conns, "conns", 8, "connections per name server the fake brokers share")
	fs.IntVar(&s.FillParallel, "fill-parallel", 16, "registrations in flight while filling")
	fs.DurationVar(&s.RegisterTimeout, "register-timeout", 24*time.Second, "time a registration may take (a broker's registerBrokerTimeoutMills)")
	fs.DurationVar(&s.Settle, "settle", 5*time.Second, "wait after filling before measuring")
	fs.DurationVar(&s.Steady, "steady", 60*time.Second, "window of steady heartbeats over which CPU is measured")
	fs.IntVar(&s.Readers, "readers", 6, "route-reading clients, spread over the name servers")
	fs.Float64Var(&s.ReadRate, "read-rate", 2000, "route reads a second the readers offer together; 0 reads as fast as answers come (which leaves no CPU to the rest on a small machine)")
	fs.DurationVar(&s.ReadWindow, "read-window", 10*time.Second, "idle route-read window (the storm's reads last its round)")
	fs.Var((*listFlag)(&s.Targets), "targets", "raftns, reference or both, comma separated (default raftns,reference)")
	fs.StringVar(&s.RefClasspath, "reference-classpath", "", "classpath of the reference NameServer, or @FILE holding it (as mvn dependency:build-classpath writes)")
	fs.Func("reference-jvm", "JVM options of the reference NameServers (default -Xmx2g -XX:+UseG1GC)", func(v string) error {
		s.RefJVM = strings.Fields(v)
		return nil
	})
}

func (s *scaleScenario) check(c *commonOptions, set map[string]bool) error {
	if err := s.scaleShape.check(); err != nil {
		return err
	}
	if len(s.Targets) == 0 {
		s.Targets = []string{"raftns", "reference"}
	}
	if s.RefJVM == nil {
		s.RefJVM = []string{"-Xmx2g", "-XX:+UseG1GC"}
	}
	for _, t := range s.Targets {
		if t != "raftns" && t != "reference" {
			return fmt.Errorf("%w: -targets %q: want raftns or reference", errUsage, t)
		}
	}
	switch {
	case slices.Contains(s.Targets, "reference") && s.RefClasspath == "":
		return fmt.Errorf("%w: the reference target needs -reference-classpath (or -targets raftns)", errUsage)
	case s.Heartbeat <= 0 || s.RegisterTimeout <= 0 || s.Steady <= 0 || s.ReadWindow <= 0 || s.Settle < 0:
		return fmt.Errorf("%w: -heartbeat, -register-timeout, -steady and -read-window must be positive", errUsage)
	case s.ReadRate < 0:
		return fmt.Errorf("%w: -read-rate must not be negative", errUsage)
	case s.Conns < 1 || s.FillParallel < 1 || s.Readers < 1:
		return fmt.Errorf("%w: -conns, -fill-parallel and -readers must be at least 1", errUsage)
	}
	return nil
}

// classpath resolves -reference-classpath: the value, or the content of
// the file named after an @.
func (s *scaleScenario) classpath() (string, error) {
	file, ok := strings.CutPrefix(s.RefClasspath, "@")
	if !ok {
		return s.RefClasspath, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("-reference-classpath: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// scaleResults is the outcome: one column per target.
type scaleResults struct {
	Shape      scaleShape    `json:"shape"`
	QueueDatas int           `json:"queueDatas"`
	Targets    []scaleResult `json:"targets"`
}

func (s *scaleScenario) run(ctx context.Context, e *env, r *Report) error {
	sb := newScaleBrokers(newNaming(), s.scaleShape)
	enc := e.newClient()
	defer enc.Close()
	// The fleet's registrations, and those its brokers send after their
	// restart in the storm (a new DataVersion).
	var reqs [2][]*remoting.Command
	now := time.Now()
	for i := range reqs {
		var err error
		if reqs[i], err = sb.requests(enc, now.Add(time.Duration(i)*time.Minute)); err != nil {
			return err
		}
	}
	e.logf("scale: %s; %d bytes per registration body", s.scaleShape, len(reqs[0][0].Body))
	res := scaleResults{Shape: s.scaleShape, QueueDatas: s.queueDatas()}
	if s.Targets[0] != "raftns" {
		e.stopMembers() // the first target gets the machine to itself
	}
	for _, name := range s.Targets {
		out, err := s.runTarget(ctx, e, r, name, sb, reqs)
		if err != nil {
			// What was measured before the failure is still reported,
			// with the error in the notes.
			out.Error = err.Error()
			e.logf("scale: %s: %v", name, err)
		}
		res.Targets = append(res.Targets, out)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	r.show(res, s.tables(res)...)
	s.notes(r, res)
	return nil
}

// runTarget starts (reference) or takes (RaftNS, started by env) the
// target, measures it and stops it, so that the next one has the machine.
func (s *scaleScenario) runTarget(ctx context.Context, e *env, r *Report, name string, sb *scaleBrokers, reqs [2][]*remoting.Command) (scaleResult, error) {
	var t scaleTarget
	failedStart := scaleResult{Target: name}
	switch name {
	case "raftns":
		if len(e.members) == 0 {
			if err := e.startMembers(ctx, e.opts.Members); err != nil {
				return failedStart, err
			}
		}
		t = raftnsTarget{e}
		defer e.stopMembers()
	default:
		cp, err := s.classpath()
		if err != nil {
			return failedStart, err
		}
		if err := e.makeWorkDir(); err != nil {
			return failedStart, err
		}
		ref, err := startReference(ctx, cp, s.RefJVM, filepath.Join(e.workDir, "reference"), 3)
		if err != nil {
			return failedStart, err
		}
		t = ref
		defer ref.close()
	}
	e.logf("scale: measuring %s", t.label())
	out, err := s.measure(ctx, e, t, sb, reqs)
	out.Target = t.label()
	r.Members = append(r.Members, t.describe()...)
	return out, err
}
