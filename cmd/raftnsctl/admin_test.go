package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/launch"
)

const statusAnswer = `{"id":"ns-1","state":"Follower","leaderId":"ns-2","leaderAddr":"10.0.0.2:9866",` +
	`"leaderClientAddr":"10.0.0.2:9876","leaderHttpAddr":"10.0.0.2:9856","ready":false,` +
	`"readyReason":"applied index behind leader","leaderReady":true,"term":7,"commitIndex":120,` +
	`"appliedIndex":118,"lastIndex":121,"lastContactMillis":35,"clusterAddr":"10.0.0.1:9866",` +
	`"clientAddr":"10.0.0.1:9876","httpAddr":"10.0.0.1:9856","brokers":3,"topics":42,` +
	`"build":{"release":"0.2.1","module":"v0.2.1","commit":"0a1b2c","goVersion":"go1.26.0"}}`

const statusTable = `ID:               ns-1
State:            Follower
Term:             7
Leader:           ns-2 (cluster 10.0.0.2:9866, client 10.0.0.2:9876, http 10.0.0.2:9856)
Ready:            no (applied index behind leader)
Leader ready:     yes
Commit index:     120
Applied index:    118
Last index:       121
Last contact:     35ms
Cluster address:  10.0.0.1:9866
Client address:   10.0.0.1:9876
HTTP address:     10.0.0.1:9856
Brokers:          3
Topics:           42
Build:            raftns 0.2.1 (module v0.2.1, commit 0a1b2c, go1.26.0)
`

const noLeaderTable = `ID:               ns-9
State:            Candidate
Term:             0
Leader:           none known
Ready:            no (no leader)
Leader ready:     no
Commit index:     0
Applied index:    0
Last index:       0
Last contact:     never
Cluster address:  -
Client address:   -
HTTP address:     -
Brokers:          0
Topics:           0
Build:            raftns 0.1.0 or older (reports no version)
`

var removedTable = strings.Replace(strings.Replace(noLeaderTable, "Candidate", "Shutdown", 1),
	"Ready:            no (no leader)\nLeader ready:     no\n",
	"Ready:            no (removed from the cluster)\nLeader ready:     no\nMembership:       removed (removed from the cluster: refuses client requests)\n", 1)

const peersAnswer = `[
 {"id":"ns-1","address":"10.0.0.1:9866","suffrage":"Voter","leader":false,"reachable":true,"state":"Follower",
  "ready":true,"appliedIndex":118,"lag":3,"lastContactMillis":35,"clientAddr":"10.0.0.1:9876","httpAddr":"10.0.0.1:9856",
  "stage":"voter","storageId":"5e1d","recordedStorageId":"5e1d"},
 {"id":"ns-2","address":"10.0.0.2:9866","suffrage":"Voter","leader":true,"reachable":true,"state":"Leader",
  "ready":true,"appliedIndex":121,"lag":0,"lastContactMillis":0,"stage":"voter"},
 {"id":"ns-3","address":"10.0.0.3:9866","suffrage":"Nonvoter","leader":false,"reachable":false,"ready":false,
  "appliedIndex":0,"lag":0,"lastContactMillis":0,"stage":"catching up"},
 {"id":"ns-5","address":"10.0.0.5:9866","suffrage":"Voter","leader":false,"reachable":true,"state":"Follower",
  "ready":true,"appliedIndex":121,"lag":0,"lastContactMillis":20,"membership":"draining","drainMillis":30000,
  "stage":"awaiting re-admission","storageId":"9a77","recordedStorageId":"5f0c"}
]`

const peersTable = `ID    ADDRESS        SUFFRAGE  STAGE                  LEADER  STATE               READY  APPLIED  LAG  LAST CONTACT  STORAGE
ns-1  10.0.0.1:9866  Voter     voter                          Follower            yes    118      3    35ms          5e1d
ns-2  10.0.0.2:9866  Voter     voter                  *       Leader              yes    121      0    -             -
ns-3  10.0.0.3:9866  Nonvoter  catching up                    unreachable         -      -        -    -             -
ns-5  10.0.0.5:9866  Voter     awaiting re-admission          Follower, draining  yes    121      0    20ms          9a77 (cluster knows 5f0c)
`

const auditAnswer = `{"records":[{"index":41,"time":"2026-12-02T10:00:00Z","who":"ops-key","from":"10.0.0.9:5123",` +
	`"via":"ns-2","kind":"topic-delete","topic":"T1","outcome":"applied"},{"index":57,"time":"2026-12-02T11:00:00Z",` +
	`"who":"raftns","via":"ns-1","kind":"broker-expiry","cluster":"C","broker":"b1","detail":"reason=timeout",` +
	`"outcome":"applied"}],"more":true,"next":41,"total":9,"lastIndex":57}`

const auditTable = `INDEX  TIME                  KIND           WHO      FROM           VIA   ABOUT  OUTCOME  DETAIL
41     2026-12-02T10:00:00Z  topic-delete   ops-key  10.0.0.9:5123  ns-2  T1     applied  -
57     2026-12-02T11:00:00Z  broker-expiry  raftns   -              ns-1  C/b1   applied  reason=timeout
`

func TestAdminCommands_RequestAndOutput(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		status     int
		answer     string
		wantMethod string
		wantPath   string
		wantQuery  string
		wantBody   string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "status table", args: []string{"status"}, status: 200, answer: statusAnswer,
			wantMethod: "GET", wantPath: "/v1/status", wantStdout: statusTable},
		{name: "status of a removed member", args: []string{"status"}, status: 200,
			answer:     `{"id":"ns-9","state":"Shutdown","ready":false,"readyReason":"removed from the cluster","lastContactMillis":-1,"membership":"removed"}`,
			wantMethod: "GET", wantPath: "/v1/status", wantStdout: removedTable},
		{name: "status without a leader", args: []string{"status"}, status: 200,
			answer:     `{"id":"ns-9","state":"Candidate","ready":false,"readyReason":"no leader","lastContactMillis":-1}`,
			wantMethod: "GET", wantPath: "/v1/status", wantStdout: noLeaderTable},
		{name: "status json is the answer unchanged", args: []string{"status", "-o", "json"}, status: 200, answer: statusAnswer,
			wantMethod: "GET", wantPath: "/v1/status", wantStdout: statusAnswer + "\n"},
		{name: "status answer that is not JSON", args: []string{"status"}, status: 200, answer: "<html>",
			wantMethod: "GET", wantPath: "/v1/status", wantCode: 1, wantStderr: "unexpected answer from 127.0.0.1:"},
		{name: "version", args: []string{"version"}, status: 200, answer: statusAnswer, wantMethod: "GET", wantPath: "/v1/status",
			wantStdout: "Client: " + buildinfo.Get().String("raftnsctl") + "\nMember: raftns 0.2.1 (module v0.2.1, commit 0a1b2c, go1.26.0)\n"},
		{name: "version json", args: []string{"version", "-o", "json"}, status: 200, answer: `{"id":"ns-1"}`, wantMethod: "GET",
			wantPath: "/v1/status", wantStdout: string(must(json.MarshalIndent(versionOutput{Client: buildinfo.Get(),
				Member: &buildinfo.Info{}}, "", "  "))) + "\n"},
		{name: "audit table", args: []string{"audit", "--kind", "topic-delete", "--since", "24h", "--limit", "2"}, status: 200,
			answer:     auditAnswer,
			wantMethod: "GET", wantPath: "/v1/audit", wantQuery: "kind=topic-delete&limit=2&since=24h", wantStdout: auditTable},
		{name: "audit json is the answer unchanged", args: []string{"audit", "-o", "json"}, status: 200, answer: auditAnswer,
			wantMethod: "GET", wantPath: "/v1/audit", wantQuery: "limit=50", wantStdout: auditAnswer + "\n"},
		{name: "upgrade finalize", args: []string{"upgrade", "finalize"}, status: 200,
			answer: `{"previous":"0.1.0","current":"0.2.0","members":{"ns-1":"0.2.0"}}`, wantMethod: "POST",
			wantPath: "/v1/upgrade/finalize", wantStdout: "cluster version raised from 0.1.0 to 0.2.0\n"},
		{name: "upgrade finalize refused", args: []string{"upgrade", "finalize"}, status: 409,
			answer:     `{"error":"cluster: upgrade cannot be finalized: member ns-3 runs release 0.1.0"}`,
			wantMethod: "POST", wantPath: "/v1/upgrade/finalize", wantCode: 1,
			wantStderr: "raftnsctl: cluster: upgrade cannot be finalized: member ns-3 runs release 0.1.0 (HTTP 409)\n"},
		{name: "peers list table", args: []string{"peers", "list"}, status: 200, answer: peersAnswer,
			wantMethod: "GET", wantPath: "/v1/peers", wantStdout: peersTable},
		{name: "peers list json", args: []string{"-o", "json", "peers", "list"}, status: 200, answer: peersAnswer,
			wantMethod: "GET", wantPath: "/v1/peers", wantStdout: peersAnswer + "\n"},
		{name: "peers list error answer", args: []string{"peers", "list"}, status: 500,
			answer: `{"error":"read configuration: raft is shutdown"}`, wantMethod: "GET", wantPath: "/v1/peers",
			wantCode: 1, wantStderr: "raftnsctl: read configuration: raft is shutdown (HTTP 500)\n"},
		{name: "peers remove", args: []string{"peers", "remove", "ns-3"}, status: 200, answer: `{"result":"removed"}`,
			wantMethod: "DELETE", wantPath: "/v1/peers/ns-3", wantStdout: "peer ns-3: removed\n"},
		{name: "peers remove force escapes the id", args: []string{"peers", "remove", "--force", "ns/3 x"}, status: 200,
			answer: `{"result":"removed"}`, wantMethod: "DELETE", wantPath: "/v1/peers/ns%2F3%20x", wantQuery: "force=true",
			wantStdout: "peer ns/3 x: removed\n"},
		{name: "peers remove at once", args: []string{"peers", "remove", "--drain", "0s", "ns-3"}, status: 200,
			answer: `{"result":"removed"}`, wantMethod: "DELETE", wantPath: "/v1/peers/ns-3", wantQuery: "drain=0s",
			wantStdout: "peer ns-3: removed\n"},
		{name: "peers remove without a drain the cluster cannot replicate", args: []string{"peers", "remove", "ns-3"}, status: 200,
			answer: `{"result":"removed","note":"removed without a drain: why"}`, wantMethod: "DELETE", wantPath: "/v1/peers/ns-3",
			wantStdout: "peer ns-3: removed without a drain: why\npeer ns-3: removed\n"},
		{name: "peers remove no wait", args: []string{"peers", "remove", "--no-wait", "--drain", "1m", "ns-3"}, status: 200,
			answer: `{"result":"draining","drainMillis":60000}`, wantMethod: "DELETE", wantPath: "/v1/peers/ns-3", wantQuery: "drain=1m0s",
			wantStdout: "peer ns-3: draining for 1m0s: no longer listed by the address service, still serving; removed when the drain is over\n"},
		{name: "peers remove json does not wait", args: []string{"-o", "json", "peers", "remove", "ns-3"}, status: 200,
			answer: `{"result":"draining","drainMillis":30000}`, wantMethod: "DELETE", wantPath: "/v1/peers/ns-3",
			wantStdout: `{"result":"draining","drainMillis":30000}` + "\n"},
		{name: "peers promote", args: []string{"peers", "promote", "ns-4"}, status: 200, answer: `{"result":"promoted to voter"}`,
			wantMethod: "POST", wantPath: "/v1/peers/ns-4/promote", wantStdout: "peer ns-4: promoted to voter\n"},
		{name: "peers demote", args: []string{"peers", "demote", "ns-4"}, status: 200,
			answer: `{"result":"demoted to non-voter; kept so until promoted (peers promote)"}`, wantMethod: "POST",
			wantPath: "/v1/peers/ns-4/demote", wantStdout: "peer ns-4: demoted to non-voter; kept so until promoted (peers promote)\n"},
		{name: "peers remove unknown member", args: []string{"peers", "remove", "nope"}, status: 404,
			answer: `{"error":"cluster: unknown member: nope"}`, wantMethod: "DELETE", wantPath: "/v1/peers/nope",
			wantCode: 1, wantStderr: "raftnsctl: cluster: unknown member: nope (HTTP 404)\n"},
		{name: "peers remove refused for quorum", args: []string{"peers", "remove", "ns-2"}, status: 409,
			answer:     `{"error":"cluster: change would leave too few connected voters"}`,
			wantMethod: "DELETE", wantPath: "/v1/peers/ns-2", wantCode: 1,
			wantStderr: "raftnsctl: cluster: change would leave too few connected voters (HTTP 409)\n"},
		{name: "leader transfer", args: []string{"leader", "transfer"}, status: 200,
			answer:     `{"result":"transferred","leaderId":"ns-3"}`,
			wantMethod: "POST", wantPath: "/v1/leader/transfer", wantStdout: "leadership transferred; leader: ns-3\n"},
		{name: "leader transfer to a member", args: []string{"leader", "transfer", "--to", "ns-2"}, status: 200,
			answer:     `{"result":"transferred","leaderId":""}`,
			wantMethod: "POST", wantPath: "/v1/leader/transfer", wantQuery: "to=ns-2",
			wantStdout: "leadership transferred; leader: not known yet (see raftnsctl status)\n"},
		{name: "leader transfer json", args: []string{"leader", "transfer", "-o", "json"}, status: 200,
			answer:     `{"result":"transferred","leaderId":"ns-3"}`,
			wantMethod: "POST", wantPath: "/v1/leader/transfer", wantStdout: `{"result":"transferred","leaderId":"ns-3"}` + "\n"},
		{name: "leader transfer refused", args: []string{"leader", "transfer"}, status: 500,
			answer: `{"error":"cannot find peer"}`, wantMethod: "POST", wantPath: "/v1/leader/transfer",
			wantCode: 1, wantStderr: "raftnsctl: cannot find peer (HTTP 500)\n"},
		{name: "error answer that is not JSON", args: []string{"peers", "list"}, status: 405,
			answer: "Method Not Allowed\n", wantMethod: "GET", wantPath: "/v1/peers",
			wantCode: 1, wantStderr: "raftnsctl: Method Not Allowed (HTTP 405)\n"},
		{name: "empty error answer", args: []string{"status"}, status: 502, answer: "",
			wantMethod: "GET", wantPath: "/v1/status", wantCode: 1, wantStderr: "raftnsctl: Bad Gateway (HTTP 502)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAdmin(t, tc.status, tc.answer)
			r := ctl(t, append([]string{"--addr", f.addr()}, tc.args...)...)
			if r.code != tc.wantCode {
				t.Fatalf("exit code = %d, want %d; stderr: %s", r.code, tc.wantCode, r.stderr)
			}
			req := f.only(t)
			if req.Method != tc.wantMethod || req.Path != tc.wantPath || req.Query != tc.wantQuery {
				t.Errorf("request = %s %s ?%s, want %s %s ?%s", req.Method, req.Path, req.Query,
					tc.wantMethod, tc.wantPath, tc.wantQuery)
			}
			if string(req.Body) != tc.wantBody {
				t.Errorf("request body = %q, want %q", req.Body, tc.wantBody)
			}
			if tc.wantBody != "" && req.ContentType != "application/json" {
				t.Errorf("request Content-Type = %q, want application/json", req.ContentType)
			}
			if r.stdout != tc.wantStdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, tc.wantStdout)
			}
			if !strings.Contains(r.stderr, tc.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", r.stderr, tc.wantStderr)
			}
		})
	}
}

func TestAdminAddr_Forms(t *testing.T) {
	f := newFakeAdmin(t, 200, statusAnswer)
	cases := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{name: "flag", args: []string{"--addr", f.addr()}},
		{name: "flag with http scheme", args: []string{"--addr", "http://" + f.addr() + "/"}},
		{name: "environment", env: map[string]string{envAdminAddr: f.addr()}},
		{name: "flag beats environment", args: []string{"--addr", f.addr()}, env: map[string]string{envAdminAddr: "127.0.0.1:1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(f.requests())
			ctlEnv(t, tc.env, append(tc.args, "status")...).mustSucceed(t)
			reqs := f.requests()
			if len(reqs) != before+1 || reqs[len(reqs)-1].Path != "/v1/status" {
				t.Fatalf("requests = %+v, want one more GET /v1/status", reqs[before:])
			}
		})
	}
}

func TestAdminAddr_UnreachableNamesTheAddress(t *testing.T) {
	addr := closedPort(t)
	r := ctl(t, "--addr", addr, "peers", "list").mustFail(t, 1, "admin API unreachable at "+addr)
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
}

func TestAdminAddr_TimeoutSaysSo(t *testing.T) {
	// The handler answers only once the client gave up.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	ctl(t, "--addr", addr, "--timeout", "100ms", "status").
		mustFail(t, 1, "admin API unreachable at "+addr+": no answer before the --timeout deadline")
}

func TestAdminAddr_CancelledContextStops(t *testing.T) {
	f := newFakeAdmin(t, 200, statusAnswer)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	code := run(ctx, []string{"--addr", f.addr(), "status"}, &out, &errb, func(string) string { return "" })
	if want := "raftnsctl: interrupted: request to " + f.addr() + " abandoned\n"; code != 1 || errb.String() != want {
		t.Fatalf("code = %d, stderr = %q; want 1 and %q", code, errb.String(), want)
	}
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	addr, err := launch.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

func TestPeersAdd_ChecksTheConfigurationFirst(t *testing.T) {
	const added = `{"result":"added as non-voter; promoted once caught up"}`
	cases := []struct {
		name       string
		args       []string
		peers      string
		postStatus int
		postAnswer string
		wantPost   string // body of the POST, "" when none may be sent
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "new member", args: []string{"ns-4", "10.0.0.4:9866"}, peers: peersAnswer, postStatus: 200, postAnswer: added,
			wantPost:   `{"id":"ns-4","address":"10.0.0.4:9866"}`,
			wantStdout: "peer ns-4 (10.0.0.4:9866): added as non-voter; promoted once caught up\n"},
		{name: "json answer", args: []string{"ns-4", "10.0.0.4:9866", "-o", "json"}, peers: peersAnswer, postStatus: 200,
			postAnswer: added, wantPost: `{"id":"ns-4","address":"10.0.0.4:9866"}`, wantStdout: added + "\n"},
		{name: "already a member", args: []string{"ns-3", "10.0.0.3:9866"}, peers: peersAnswer,
			wantStdout: "peer ns-3 (10.0.0.3:9866) is already a member (Nonvoter); nothing to do\n"},
		{name: "id taken at another address", args: []string{"ns-2", "10.0.0.9:9866"}, peers: peersAnswer, wantCode: 1,
			wantStderr: "raftnsctl: conflict: ns-2 at 10.0.0.2:9866 is a member (Voter); adding ns-2 at 10.0.0.9:9866 " +
				"would remove it first; use --replace if that is meant\n"},
		{name: "address taken by another id", args: []string{"ns-9", "10.0.0.1:9866"}, peers: peersAnswer, wantCode: 1,
			wantStderr: "raftnsctl: conflict: ns-1 at 10.0.0.1:9866 is a member (Voter); adding ns-9"},
		{name: "replace", args: []string{"ns-2", "10.0.0.9:9866", "--replace"}, peers: peersAnswer, postStatus: 200,
			postAnswer: added, wantPost: `{"id":"ns-2","address":"10.0.0.9:9866"}`,
			wantStdout: "peer ns-2 (10.0.0.9:9866): added as non-voter; promoted once caught up\n"},
		{name: "without a leader", args: []string{"ns-4", "10.0.0.4:9866"}, peers: peersAnswer, postStatus: 503,
			postAnswer: `{"error":"cluster: no leader: the leader's admin address is not known yet"}`,
			wantPost:   `{"id":"ns-4","address":"10.0.0.4:9866"}`, wantCode: 1,
			wantStderr: "raftnsctl: cluster: no leader: the leader's admin address is not known yet (HTTP 503)\n"},
		{name: "configuration unreadable", args: []string{"ns-4", "10.0.0.4:9866"},
			peers: `{"error":"read configuration: raft is shutdown"}`, wantCode: 1,
			wantStderr: "raftnsctl: read the configuration before adding: read configuration: raft is shutdown (HTTP 500)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			peersStatus := 200
			if strings.HasPrefix(tc.peers, `{"error"`) {
				peersStatus = 500
			}
			f := newFakeAdmin(t, 418, "unexpected request").
				on("GET", "/v1/peers", peersStatus, tc.peers).
				on("POST", "/v1/peers", tc.postStatus, tc.postAnswer)
			r := ctl(t, append([]string{"--addr", f.addr(), "peers", "add"}, tc.args...)...)
			if r.code != tc.wantCode || r.stdout != tc.wantStdout || !strings.Contains(r.stderr, tc.wantStderr) {
				t.Fatalf("code %d, stdout %q, stderr %q; want %d, %q, %q", r.code, r.stdout, r.stderr,
					tc.wantCode, tc.wantStdout, tc.wantStderr)
			}
			reqs := f.requests()
			if len(reqs) == 0 || reqs[0].Method != "GET" || reqs[0].Path != "/v1/peers" {
				t.Fatalf("first request = %+v, want GET /v1/peers", reqs)
			}
			posts := reqs[1:]
			switch {
			case tc.wantPost == "" && len(posts) != 0:
				t.Fatalf("sent %+v, want nothing after GET /v1/peers", posts)
			case tc.wantPost != "" && (len(posts) != 1 || posts[0].Method != "POST" || posts[0].Path != "/v1/peers" ||
				string(posts[0].Body) != tc.wantPost || posts[0].ContentType != "application/json"):
				t.Fatalf("sent %+v, want one POST /v1/peers with %s", posts, tc.wantPost)
			}
		})
	}
}

func TestStatusAndPeers_RealMember(t *testing.T) {
	r := memberCtl(t, "status", "-o", "json").mustSucceed(t)
	var st adminapi.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.ID == "" || st.ClientAddr != member.ClientAddr {
		t.Fatalf("status -o json = %s (err %v), want this member's status", r.stdout, err)
	}
	r = memberCtl(t, "status").mustSucceed(t)
	for _, want := range []string{"ID:               " + st.ID + "\n", "State:            Leader\n", "Ready:            yes\n",
		"HTTP address:     " + member.HTTPAddr + "\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, r.stdout)
		}
	}
	r = memberCtl(t, "peers", "list").mustSucceed(t)
	rows := fieldsOfLines(r.stdout)
	if len(rows) < 2 || !strings.HasPrefix(rows[1], st.ID+" "+st.ClusterAddr+" Voter voter * Leader yes ") {
		t.Fatalf("peers list:\n%s\nwant one Voter row for %s marked leader", r.stdout, st.ID)
	}
	r = memberCtl(t, "peers", "add", st.ID, st.ClusterAddr).mustSucceed(t)
	if r.stdout != "peer "+st.ID+" ("+st.ClusterAddr+") is already a member (Voter); nothing to do\n" {
		t.Errorf("peers add of itself = %q", r.stdout)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestUpgradeStatus_ListsEachMembersRelease(t *testing.T) {
	f := newFakeAdmin(t, 200, statusAnswer).
		on("GET", "/v1/status", 200, `{"id":"ns-1","clusterVersion":"0.1.0"}`).
		on("GET", "/v1/peers", 200, `[{"id":"ns-2","reachable":true,"release":"0.2.0","commit":"0a1b2c"},`+
			`{"id":"ns-1","reachable":true},{"id":"ns-3","reachable":false}]`)
	r := ctl(t, "--addr", f.addr(), "upgrade", "status")
	want := "Cluster version: 0.1.0\n" +
		"ID    RELEASE         COMMIT\n" +
		"ns-1  0.1.0 or older  -\n" +
		"ns-2  0.2.0           0a1b2c\n" +
		"ns-3  -               -\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", r.code, r.stdout, want, r.stderr)
	}
}
