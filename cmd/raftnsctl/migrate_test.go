package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// startMember starts a single-member cluster of its own (the TestMain
// member's binary) with extra flags, stopped when the test ends. Two of
// them share nothing, like two reference NameServers.
func startMember(t *testing.T, args ...string) *launch.Member {
	t.Helper()
	m, err := launch.NewMember(member.Binary, "", filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	m.Args, m.DieWithParent = args, true
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Kill)
	if err := m.WaitReady(context.Background(), 60*time.Second); err != nil {
		t.Fatalf("%v\n%s", err, m.Log())
	}
	return m
}

// fleet registers fake brokers with name servers over one client, which
// keeps their connections (and so the registrations) until the test ends.
type fleet struct {
	t *testing.T
	c *nsclient.Client
}

func newFleet(t *testing.T) *fleet {
	c := nsclient.New(remoting.ClientConfig{})
	t.Cleanup(func() { c.Close() })
	return &fleet{t: t, c: c}
}

func (f *fleet) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	f.t.Cleanup(cancel)
	return ctx
}

// register registers broker name/id at addr with topics (4 queues, perm 6)
// with each name server.
func (f *fleet) register(name string, id int64, addr string, topics []string, servers ...*launch.Member) {
	f.t.Helper()
	rb := body.RegisterBody{DataVersion: state.DataVersion{Timestamp: 1700000000000, Counter: 1}, HasFilterServerList: true}
	for _, tp := range topics {
		rb.TopicConfigs = append(rb.TopicConfigs, state.TopicConfig{TopicName: tp, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6})
	}
	for _, s := range servers {
		reg := &nsclient.Registration{ClusterName: "MigCluster", BrokerName: name, BrokerAddr: addr, HaServerAddr: addr, BrokerID: id, Body: rb}
		if _, err := f.c.RegisterBroker(f.ctx(), s.ClientAddr, reg); err != nil {
			f.t.Fatalf("register %s/%d with %s: %v", name, id, s.ClientAddr, err)
		}
	}
}

func (f *fleet) putKV(ns, key, value string, servers ...*launch.Member) {
	f.t.Helper()
	for _, s := range servers {
		if err := f.c.PutKV(f.ctx(), s.ClientAddr, ns, key, value); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fleet) kv(s *launch.Member, ns, key string) (string, error) {
	return f.c.GetKV(f.ctx(), s.ClientAddr, ns, key)
}

func from(ms ...*launch.Member) string {
	addrs := make([]string, len(ms))
	for i, m := range ms {
		addrs[i] = m.ClientAddr
	}
	return strings.Join(addrs, ";")
}

// reportJSON is the part of migrate report -o json the tests read.
type reportJSON struct {
	OK          bool     `json:"ok"`
	Servers     []string `json:"servers"`
	Found       int      `json:"found"`
	Differences []struct {
		Kind, Subject, Problem string
		Values                 []*string
	} `json:"differences"`
}

func TestMigrateReport_NamesEveryDifferenceThenAgrees(t *testing.T) {
	a, b := startMember(t), startMember(t)
	f := newFleet(t)
	f.register("mig-a", 0, "10.9.0.1:10911", []string{"MigTopic", "MigOther"}, a, b)
	f.register("mig-a", 1, "10.9.0.2:10911", nil, a) // a slave on a only
	f.putKV("ORDER_TOPIC_CONFIG", "MigTopic", "mig-a:4", a)

	r := ctl(t, "migrate", "report", "--from", from(a, b))
	r.mustFail(t, 3, "raftnsctl: migrate report: disagree: 2 differences (1 broker, 1 kv)\n")
	for _, want := range []string{
		"NAME SERVER", a.ClientAddr, "broker mig-a/1: missing\n", "  " + a.ClientAddr + "  10.9.0.2:10911 cluster MigCluster\n",
		"  " + b.ClientAddr + "  -\n", "kv ORDER_TOPIC_CONFIG/MigTopic: missing\n", "disagree: 2 differences (1 broker, 1 kv)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.stdout)
		}
	}
	r = ctl(t, "migrate", "report", "--from", from(a, b), "-o", "json").mustFail(t, 3, "disagree")
	var rep reportJSON
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("-o json: %v\n%s", err, r.stdout)
	}
	if rep.OK || rep.Found != 2 || len(rep.Differences) != 2 || rep.Differences[0].Subject != "mig-a/1" ||
		rep.Differences[1].Kind != "kv" || rep.Differences[1].Values[1] != nil || *rep.Differences[1].Values[0] != "mig-a:4" {
		t.Fatalf("-o json: %+v", rep)
	}

	f.register("mig-a", 1, "10.9.0.2:10911", nil, b)
	f.putKV("ORDER_TOPIC_CONFIG", "MigTopic", "mig-a:4", b)
	r = ctl(t, "migrate", "report", "--from", from(a, b)).mustSucceed(t)
	if !strings.Contains(r.stdout, "agree: the 2 name servers hold the same") || r.stderr != "" {
		t.Errorf("report of agreeing servers:\n%s\nstderr %q", r.stdout, r.stderr)
	}
	r = ctl(t, "migrate", "report", "--from", a.ClientAddr).mustSucceed(t)
	if !strings.Contains(r.stdout, "agree: one name server, nothing to compare it with") {
		t.Errorf("report of one server:\n%s", r.stdout)
	}
}

func TestMigrateReport_TopicAndPermDifferences(t *testing.T) {
	a, b := startMember(t), startMember(t)
	f := newFleet(t)
	f.register("mig-a", 0, "10.9.0.1:10911", []string{"MigTopic", "MigOther"}, a, b)
	if _, err := f.c.WipeWritePerm(f.ctx(), a.ClientAddr, "mig-a"); err != nil {
		t.Fatal(err)
	}
	if err := f.c.DeleteTopic(f.ctx(), b.ClientAddr, "MigOther", ""); err != nil {
		t.Fatal(err)
	}
	r := ctl(t, "migrate", "report", "--from", from(a, b), "--data-versions").mustFail(t, 3, "3 differences (1 write-perm, 2 topic)")
	for _, want := range []string{
		"write-perm mig-a: different\n", "  " + a.ClientAddr + "  wiped\n", "  " + b.ClientAddr + "  writable\n",
		"topic MigOther: missing\n", "  " + a.ClientAddr + "  mig-a r4 w4 perm 4\n",
		"topic MigTopic: different\n", "  " + b.ClientAddr + "  mig-a r4 w4 perm 6\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestMigrateVerify_ReportsWhatRaftNSLacks(t *testing.T) {
	old, raft := startMember(t), startMember(t)
	f := newFleet(t)
	f.register("mig-a", 0, "10.9.0.1:10911", []string{"MigTopic"}, old, raft)
	f.register("mig-b", 0, "10.9.0.3:10911", []string{"MigB"}, old)
	f.putKV("ORDER_TOPIC_CONFIG", "MigTopic", "mig-a:4", old)
	f.putKV("ORDER_TOPIC_CONFIG", "NewOnRaft", "x", raft)

	r := ctl(t, "migrate", "verify", "--from", old.ClientAddr, "--to", raft.ClientAddr).mustFail(t, 3, "raftnsctl: migrate verify: not clean: 4 differences")
	for _, want := range []string{
		"ROLE  NAME SERVER", "from  " + old.ClientAddr, "to    " + raft.ClientAddr,
		"broker mig-b/0: missing\n", "  to    " + raft.ClientAddr + "  -\n", "topic MigB: missing", "write-perm mig-b: missing",
		"kv ORDER_TOPIC_CONFIG/MigTopic: missing", "kv ORDER_TOPIC_CONFIG/NewOnRaft: extra",
		"not clean: 4 differences (1 broker, 1 write-perm, 1 topic, 1 kv); 1 subject only on --to (extra)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("verify lacks %q:\n%s", want, r.stdout)
		}
	}
	f.register("mig-b", 0, "10.9.0.3:10911", []string{"MigB"}, raft)
	ctl(t, "migrate", "import", "--from", old.ClientAddr, "--to", raft.ClientAddr).mustSucceed(t)
	r = ctl(t, "migrate", "verify", "--from", old.ClientAddr, "--to", raft.ClientAddr).mustSucceed(t)
	if !strings.Contains(r.stdout, "clean: every member of --to holds what --from holds; 1 subject only on --to (extra)") {
		t.Errorf("verify after the brokers registered and the import:\n%s", r.stdout)
	}
}

func TestMigrateImport_CopiesKVIdempotentlyWithDryRun(t *testing.T) {
	ref1, ref2, raft := startMember(t), startMember(t), startMember(t)
	f := newFleet(t)
	f.putKV("ORDER_TOPIC_CONFIG", "TopicOrder", "mig-a:4", ref1, ref2)
	f.putKV("MY_NS", "k", "tab\there", ref1, ref2)
	f.putKV("ORDER_TOPIC_CONFIG", "Stale", "mig-a:2", raft)
	f.putKV("ORDER_TOPIC_CONFIG", "Stale", "mig-a:8", ref1, ref2)
	args := []string{"migrate", "import", "--from", from(ref1, ref2), "--to", raft.ClientAddr, "--namespace", "ORDER_TOPIC_CONFIG,MY_NS"}

	r := ctl(t, append(args, "--dry-run")...).mustSucceed(t)
	for _, want := range []string{
		"ACTION  KIND  SUBJECT", "update  kv    ORDER_TOPIC_CONFIG/Stale       mig-a:8 (was mig-a:2)",
		"set     kv    ORDER_TOPIC_CONFIG/TopicOrder  mig-a:4", `set     kv    MY_NS/k                        "tab\there"`,
		"dry run, nothing written to " + raft.ClientAddr + ": 2 keys set, 1 updated, 0 unchanged", routesNote,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("dry run lacks %q:\n%s", want, r.stdout)
		}
	}
	if v, err := f.kv(raft, "ORDER_TOPIC_CONFIG", "Stale"); err != nil || v != "mig-a:2" {
		t.Fatalf("the dry run wrote: Stale = %q, %v", v, err)
	}
	r = ctl(t, args...).mustSucceed(t)
	if !strings.Contains(r.stdout, "imported into "+raft.ClientAddr+": 2 keys set, 1 updated, 0 unchanged") {
		t.Errorf("import:\n%s", r.stdout)
	}
	for key, want := range map[string]string{"TopicOrder": "mig-a:4", "Stale": "mig-a:8"} {
		if v, err := f.kv(raft, "ORDER_TOPIC_CONFIG", key); err != nil || v != want {
			t.Errorf("%s on RaftNS = %q, %v; want %q", key, v, err, want)
		}
	}
	r = ctl(t, append(args, "-o", "json")...).mustSucceed(t)
	var again struct {
		Written int
		KV      []struct{ Action string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &again); err != nil || again.Written != 0 || len(again.KV) != 3 || again.KV[0].Action != "unchanged" {
		t.Errorf("second import -o json (want nothing written): %s (%v)", r.stdout, err)
	}
}

func TestMigrateImport_ConflictsWriteNothing(t *testing.T) {
	ref1, ref2, raft := startMember(t), startMember(t), startMember(t)
	f := newFleet(t)
	f.putKV("ORDER_TOPIC_CONFIG", "Agreed", "x", ref1, ref2)
	f.putKV("ORDER_TOPIC_CONFIG", "OnlyOne", "y", ref1)
	r := ctl(t, "migrate", "import", "--from", from(ref1, ref2), "--to", raft.ClientAddr).
		mustFail(t, 1, "raftnsctl: conflict: migrate import: the name servers of --from disagree on 1 keys or broker groups; nothing written")
	if !strings.Contains(r.stdout, "conflict: kv ORDER_TOPIC_CONFIG/OnlyOne: missing\n") {
		t.Errorf("output lacks the conflict:\n%s", r.stdout)
	}
	if _, err := f.kv(raft, "ORDER_TOPIC_CONFIG", "Agreed"); !nsclient.IsCode(err, remoting.QueryNotFound) {
		t.Errorf("a conflicting import wrote Agreed: %v", err)
	}
}

func TestMigrateImport_WritePermission(t *testing.T) {
	old, raft := startMember(t), startMember(t)
	f := newFleet(t)
	f.register("mig-a", 0, "10.9.0.1:10911", []string{"MigTopic"}, old, raft)
	f.register("mig-b", 0, "10.9.0.3:10911", []string{"MigB"}, old)
	for _, b := range []string{"mig-a", "mig-b"} {
		if _, err := f.c.WipeWritePerm(f.ctx(), old.ClientAddr, b); err != nil {
			t.Fatal(err)
		}
	}
	r := ctl(t, "migrate", "import", "--from", old.ClientAddr, "--to", raft.ClientAddr, "--write-perm").mustSucceed(t)
	for _, want := range []string{"wipe            write-perm  mig-a", "not registered  write-perm  mig-b",
		"write permission wiped on 1 broker group, 0 already wiped, 1 not registered with RaftNS yet"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("import lacks %q:\n%s", want, r.stdout)
		}
	}
	route, err := f.c.GetRoute(f.ctx(), raft.ClientAddr, "MigTopic")
	if err != nil || route.QueueDatas[0].Perm != 4 {
		t.Fatalf("MigTopic on RaftNS after the import: %+v, %v; want perm 4", route, err)
	}
	r = ctl(t, "migrate", "import", "--from", old.ClientAddr, "--to", raft.ClientAddr, "--write-perm").mustSucceed(t)
	if !strings.Contains(r.stdout, "already wiped   write-perm  mig-a") {
		t.Errorf("second import:\n%s", r.stdout)
	}
}

func TestMigrateImport_SignsForAccessControl(t *testing.T) {
	dir := t.TempDir()
	accounts := filepath.Join(dir, "plain_acl.yml")
	writeFile(t, accounts, []byte("accounts:\n- accessKey: migAdmin\n  secretKey: migSecret123\n  admin: true\n"))
	secret := filepath.Join(dir, "secret")
	writeFile(t, secret, []byte("migSecret123\n"))
	old := startMember(t)
	raft := startMember(t, "--acl-mode", "writes", "--acl-file", accounts)
	f := newFleet(t)
	f.putKV("ORDER_TOPIC_CONFIG", "TopicOrder", "mig-a:4", old)
	args := []string{"migrate", "import", "--from", old.ClientAddr, "--to", raft.ClientAddr}
	ctl(t, args...).mustFail(t, 1, "name server "+raft.ClientAddr+": put KV ORDER_TOPIC_CONFIG/TopicOrder: nsclient: response code 16")
	r := ctl(t, append(args, "--access-key", "migAdmin", "--secret-key-file", secret)...).mustSucceed(t)
	if !strings.Contains(r.stdout, "1 key set") {
		t.Errorf("signed import:\n%s", r.stdout)
	}
	r = ctlEnv(t, map[string]string{envAccessKey: "migAdmin", envSecretKey: "migSecret123"}, append(args, "-o", "json")...).mustSucceed(t)
	if !strings.Contains(r.stdout, `"action": "unchanged"`) {
		t.Errorf("import with the account from the environment:\n%s", r.stdout)
	}
}

func TestMigrate_BadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no --from", []string{"migrate", "report"}, 2, "migrate report: --from: want at least one name server"},
		{"bad address", []string{"migrate", "report", "--from", "127.0.0.1:9876;nohost"}, 2, `--from: "nohost": want HOST:PORT`},
		{"bad port", []string{"migrate", "report", "--from", "127.0.0.1:99999"}, 2, `--from: "127.0.0.1:99999": want HOST:PORT`},
		{"listed twice", []string{"migrate", "report", "--from", "127.0.0.1:1;127.0.0.1:1"}, 2, "127.0.0.1:1 is listed twice"},
		{"from is to", []string{"migrate", "verify", "--from", "127.0.0.1:1", "--to", "127.0.0.1:1"}, 2, "127.0.0.1:1 is in both --from and --to"},
		{"concurrency", []string{"migrate", "report", "--from", "127.0.0.1:1", "--concurrency", "0"}, 2, "--concurrency 0: want 1 to 256"},
		{"request timeout", []string{"migrate", "report", "--from", "127.0.0.1:1", "--request-timeout", "0s"}, 2, "--request-timeout 0s: must be positive"},
		{"max differences", []string{"migrate", "report", "--from", "127.0.0.1:1", "--max-differences", "-1"}, 2, "--max-differences -1"},
		{"empty namespace", []string{"migrate", "import", "--from", "127.0.0.1:1", "--to", "127.0.0.1:2", "--namespace", ","}, 2, "--namespace must not be empty"},
		{"key without secret", []string{"migrate", "import", "--from", "127.0.0.1:1", "--to", "127.0.0.1:2", "--access-key", "ak"}, 2, "--access-key needs a secret key"},
		{"secret without key", []string{"migrate", "import", "--from", "127.0.0.1:1", "--to", "127.0.0.1:2", "--secret-key-file", missing}, 2, "--secret-key-file needs --access-key"},
		{"unreadable secret", []string{"migrate", "import", "--from", "127.0.0.1:1", "--to", "127.0.0.1:2", "--access-key", "ak", "--secret-key-file", missing}, 2, "--secret-key-file: open"},
		{"argument", []string{"migrate", "report", "--from", "127.0.0.1:1", "extra"}, 2, `unexpected argument "extra"`},
		{"unreachable", []string{"migrate", "report", "--from", "127.0.0.1:1"}, 1,
			"raftnsctl: migrate report: name server 127.0.0.1:1: cluster info: remoting: connect 127.0.0.1:1"},
		{"unreachable target", []string{"migrate", "verify", "--from", member.ClientAddr, "--to", "127.0.0.1:1"}, 1,
			"migrate verify: --to 127.0.0.1:1: cannot tell whether it is a RaftNS member"},
		{"verify without --to", []string{"--namesrv", member.ClientAddr, "migrate", "verify", "--from", "127.0.0.1:1"}, 2,
			"migrate verify: --to is required"},
		{"import without --to", []string{"--namesrv", member.ClientAddr, "migrate", "import", "--from", "127.0.0.1:1"}, 2,
			"migrate import: --to is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ctl(t, tc.args...).mustFail(t, tc.code, tc.want)
			if r.stdout != "" {
				t.Errorf("stdout = %q, want nothing", r.stdout)
			}
		})
	}
}

func TestProgressPrinter_RewritesOneLineAndClearsIt(t *testing.T) {
	var b strings.Builder
	p := progressPrinter(&b, "migrate report")
	p("routes", 10, 100)
	p("routes", 100, 100)
	if want := "\r\033[Kmigrate report: routes 10/100\r\033[K"; b.String() != want {
		t.Errorf("progress = %q, want %q", b.String(), want)
	}
	a := &app{stderr: &b}
	if a.progress("x") != nil {
		t.Error("progress on a writer that is not a terminal")
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	a.stderr = devNull
	if a.progress("x") == nil {
		t.Errorf("no progress on %s, a character device", os.DevNull)
	}
}
