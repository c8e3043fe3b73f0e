package nscompare

import (
	"context"
	"sort"

	"github.com/raftns/raftns/client/nsclient"
)

// Compare reads the name servers refs and targets through c and judges
// every subject. Without targets it is a report: every ref must hold the
// same. With targets it is a verification: every target must hold what
// the refs hold (one of their values where they disagree); what only
// targets hold is listed as Extra. It fails when a server cannot be read;
// an answer of TOPIC_NOT_EXIST or QUERY_NOT_FOUND is an absent topic or
// namespace, not a failure.
func Compare(ctx context.Context, c *nsclient.Client, refs, targets []string, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	if err := opts.check(refs, targets); err != nil {
		return nil, err
	}
	servers := append(append([]string(nil), refs...), targets...)
	r := reader{c: c, timeout: opts.RequestTimeout}
	states, err := r.readStates(ctx, servers, opts.Namespaces, allParts)
	if err != nil {
		return nil, err
	}
	summaries := make([]Summary, len(states))
	for i, s := range states {
		summaries[i] = s.summary(i >= len(refs))
	}
	col := newCollector(len(targets), opts.MaxDifferences)
	col.addMaps(KindBroker, brokerMaps(states))
	col.addMaps(KindKV, kvMaps(states))
	col.addMaps(KindConfig, settingsMaps(states))
	if err := r.compareRoutes(ctx, states, unionTopics(states), col, opts); err != nil {
		return nil, err
	}
	col.addMaps(KindWritePerm, permMaps(states))
	if opts.DataVersions {
		if err := r.compareDataVersions(ctx, states, col, opts); err != nil {
			return nil, err
		}
	}
	return col.result(servers, summaries), nil
}

// brokerMaps returns each server's broker id -> description.
func brokerMaps(states []*serverState) []map[string]string {
	out := make([]map[string]string, len(states))
	for i, s := range states {
		out[i] = make(map[string]string, len(s.brokers))
		for _, b := range s.brokers {
			out[i][b.subject()] = b.value()
		}
	}
	return out
}

// kvMaps returns each server's NAMESPACE/KEY -> value.
func kvMaps(states []*serverState) []map[string]string {
	out := make([]map[string]string, len(states))
	for i, s := range states {
		out[i] = map[string]string{}
		for ns, table := range s.kv {
			for k, v := range table {
				out[i][kvSubject(ns, k)] = v
			}
		}
	}
	return out
}

// settingsMaps returns each server's compared settings, keeping only those
// every server reports: a setting one kind of name server does not have
// cannot differ.
func settingsMaps(states []*serverState) []map[string]string {
	out := make([]map[string]string, len(states))
	for i := range states {
		out[i] = map[string]string{}
	}
	for _, k := range comparedSettings {
		everywhere := true
		for _, s := range states {
			if _, ok := s.settings[k]; !ok {
				everywhere = false
			}
		}
		if everywhere {
			for i, s := range states {
				out[i][k] = s.settings[k]
			}
		}
	}
	return out
}

// permMaps returns each server's broker group -> write-permission state.
func permMaps(states []*serverState) []map[string]string {
	out := make([]map[string]string, len(states))
	for i, s := range states {
		out[i] = make(map[string]string, len(s.perm))
		for name, t := range s.perm {
			out[i][name] = t.value()
		}
	}
	return out
}

// compareDataVersions asks each server that lists a broker id for the
// DataVersion it holds. A server that does not list the id is not asked,
// so that no name server hears of a broker it does not know.
func (r reader) compareDataVersions(ctx context.Context, states []*serverState, col *collector, opts Options) error {
	type key struct{ subject, addr string }
	listed := map[key][]bool{}
	byKey := map[key]broker{}
	for i, s := range states {
		for _, b := range s.brokers {
			k := key{b.subject(), b.addr}
			if listed[k] == nil {
				listed[k] = make([]bool, len(states))
			}
			listed[k][i] = true
			byKey[k] = b
		}
	}
	keys := make([]key, 0, len(listed))
	for k := range listed {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].subject < keys[j].subject || keys[i].subject == keys[j].subject && keys[i].addr < keys[j].addr
	})
	return forEach(ctx, len(keys), opts.Concurrency, "data versions", opts.Progress, func(ctx context.Context, i int) error {
		b := byKey[keys[i]]
		values := make([]*string, len(states))
		for j, s := range states {
			if !listed[keys[i]][j] {
				continue
			}
			var v *string
			err := r.call(ctx, s.addr, "data version of "+b.subject(), func(ctx context.Context) error {
				dv, err := r.c.StoredDataVersion(ctx, s.addr, b.cluster, b.name, b.addr, b.id)
				if err == nil && dv != nil {
					d := dataVersionValue(dv.Counter, dv.Timestamp, dv.StateVersion)
					v = &d
				}
				return err
			})
			if err != nil {
				return err
			}
			values[j] = v
		}
		col.add(KindDataVersion, b.subject()+" "+b.addr, values)
		return nil
	})
}
