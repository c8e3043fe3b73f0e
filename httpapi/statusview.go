package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/events"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
)

// statusView is everything the status page shows, gathered from this
// member's own replicated state, its probes of the other members and, for
// broker liveness, the leader.
type statusView struct {
	Self      adminapi.Status
	Role      string
	Generated string
	Members   []memberView
	// MembersError says why the member list is missing.
	MembersError string
	// MixedReleases lists the releases members run when they differ.
	MixedReleases string
	Clusters      []clusterView
	// LivenessNote says where heartbeat times come from, or why they are
	// missing.
	LivenessNote string
	Events       []events.Event
	EventCap     int
	// Audit is the newest records of the audit trail, newest first, of
	// AuditTotal; AuditOn says whether the cluster version allows it.
	Audit      []adminapi.AuditRecord
	AuditTotal int
	AuditOn    bool
	// WatchEnabled says the page may follow the watch stream.
	WatchEnabled bool
}

type memberView struct {
	adminapi.PeerStatus
	Role        string
	LastContact string
	Self        bool
	// ReleaseText is the member's release, or the baseline for a build
	// that predates versions.
	ReleaseText string
}

type clusterView struct {
	Name    string
	Brokers []brokerView
}

type brokerView struct {
	Name          string
	ID            int64
	Addr          string
	LastHeartbeat string
	ExpiresIn     string
	// Overdue marks a broker past its expiry time, awaiting the next scan.
	Overdue bool
}

// livenessKey identifies a broker in the liveness answer.
type livenessKey struct{ cluster, addr string }

// statusPageTimeout bounds gathering the page: member probes and the
// leader's liveness answer.
const statusPageTimeout = 3 * time.Second

func (p *statusPage) gather(ctx context.Context) statusView {
	ctx, cancel := context.WithTimeout(ctx, statusPageTimeout)
	defer cancel()
	st := p.node.Status()
	v := statusView{Self: st, Role: roleOf(st.State), Generated: time.Now().UTC().Format("2006-01-02 15:04:05 UTC")}
	peers, err := p.node.Peers(ctx)
	if err != nil {
		v.MembersError = err.Error()
	}
	releases := map[string]bool{}
	for _, ps := range peers {
		mv := memberView{PeerStatus: ps, Role: peerRole(ps), LastContact: contactText(ps.LastContactMillis, ps.Reachable),
			Self: ps.ID == st.ID, ReleaseText: releaseText(ps.Release)}
		if ps.Reachable {
			releases[mv.ReleaseText] = true
		}
		v.Members = append(v.Members, mv)
	}
	if len(releases) > 1 {
		v.MixedReleases = strings.Join(slices.Sorted(maps.Keys(releases)), ", ")
	}
	live, note := p.liveness(ctx, st)
	v.LivenessNote = note
	v.Clusters = clusterViews(p.node.FSM().ClusterInfo(), live)
	v.Events = p.ring.Recent(0)
	p.gatherAudit(&v)
	v.EventCap = p.ring.Capacity()
	return v
}

// releaseText names a member's release; a build that reports none
// predates versions.
func releaseText(release string) string {
	if release == "" {
		return buildinfo.Baseline + " or older"
	}
	return release
}

// liveness returns the leader's broker liveness: its own on the leader,
// fetched from the leader's admin address on a follower.
func (p *statusPage) liveness(ctx context.Context, st adminapi.Status) (map[livenessKey]adminapi.BrokerLiveness, string) {
	list, ok := p.node.BrokerLiveness()
	if !ok {
		if st.LeaderHTTPAddr == "" || st.LeaderID == st.ID {
			return nil, "heartbeat times unknown: no leader in office with an admin address"
		}
		var err error
		if list, err = fetchLiveness(ctx, st.LeaderHTTPAddr); err != nil {
			return nil, fmt.Sprintf("heartbeat times unknown: leader %s: %v", st.LeaderID, err)
		}
	}
	m := make(map[livenessKey]adminapi.BrokerLiveness, len(list))
	for _, l := range list {
		m[livenessKey{l.Cluster, l.Addr}] = l
	}
	if ok {
		return m, "heartbeat times from this member's liveness tracker (leader)"
	}
	return m, "heartbeat times from the leader " + st.LeaderID
}

// maxLivenessBody bounds the leader's liveness answer a follower reads.
const maxLivenessBody = 16 << 20

func fetchLiveness(ctx context.Context, addr string) ([]adminapi.BrokerLiveness, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/v1/brokers", nil)
	if err != nil {
		return nil, err
	}
	resp, err := proxyTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var list []adminapi.BrokerLiveness
	if err := json.NewDecoder(http.MaxBytesReader(nil, resp.Body, maxLivenessBody)).Decode(&list); err != nil {
		return nil, fmt.Errorf("liveness answer: %w", err)
	}
	return list, nil
}

func clusterViews(ci state.ClusterInfo, live map[livenessKey]adminapi.BrokerLiveness) []clusterView {
	var out []clusterView
	for name, brokerNames := range ci.ClusterAddrTable {
		cv := clusterView{Name: name}
		for _, bn := range brokerNames {
			bd, ok := ci.BrokerAddrTable[bn]
			if !ok {
				continue
			}
			for id, addr := range bd.BrokerAddrs {
				bv := brokerView{Name: bn, ID: id, Addr: addr, LastHeartbeat: "—", ExpiresIn: "—"}
				if l, ok := live[livenessKey{name, addr}]; ok {
					bv.LastHeartbeat = durationText(l.LastHeartbeatMillis) + " ago"
					bv.ExpiresIn = durationText(l.ExpiresInMillis)
					bv.Overdue = l.ExpiresInMillis < 0
				}
				cv.Brokers = append(cv.Brokers, bv)
			}
		}
		sort.Slice(cv.Brokers, func(i, j int) bool {
			a, b := cv.Brokers[i], cv.Brokers[j]
			return a.Name < b.Name || a.Name == b.Name && a.ID < b.ID
		})
		out = append(out, cv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func roleOf(raftState string) string {
	switch raftState {
	case "Leader":
		return "leader"
	case "Follower":
		return "follower"
	case "Candidate":
		return "candidate"
	}
	return raftState
}

func peerRole(p adminapi.PeerStatus) string {
	r := "unreachable"
	if p.Reachable {
		r = roleOf(p.State)
	}
	if p.Reachable && p.Suffrage != "Voter" {
		r += " (non-voter)"
	}
	if p.Membership != "" {
		r += " (" + p.Membership + ")"
	}
	return r
}

func contactText(ms int64, reachable bool) string {
	switch {
	case !reachable:
		return "—"
	case ms == 0:
		return "—"
	case ms < 0:
		return "never"
	}
	return durationText(ms) + " ago"
}

// durationText renders milliseconds briefly: 850ms, 12.3s, 4m05s.
func durationText(ms int64) string {
	neg := ms < 0
	if neg {
		ms = -ms
	}
	var s string
	switch {
	case ms < 1000:
		s = strconv.FormatInt(ms, 10) + "ms"
	case ms < 60_000:
		s = strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + "s"
	default:
		s = fmt.Sprintf("%dm%02ds", ms/60_000, ms/1000%60)
	}
	if neg {
		return "-" + s
	}
	return s
}
