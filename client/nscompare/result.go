package nscompare

import (
	"slices"
	"sort"
)

// Kind names what a difference is about.
type Kind string

// The kinds of difference, in the order results list them.
const (
	// KindBroker is one broker id of a broker group: its address, cluster,
	// zone and acting-master flag in the cluster table.
	KindBroker Kind = "broker"
	// KindWritePerm is whether a broker group's queues are writable, over
	// every topic of the topic list.
	KindWritePerm Kind = "write-perm"
	// KindTopic is the queue data of one topic's route (per broker group:
	// read and write queue counts, permission, system flag) and its static
	// queue mappings.
	KindTopic Kind = "topic"
	// KindKV is one key of a KV namespace; the subject is NAMESPACE/KEY.
	KindKV Kind = "kv"
	// KindConfig is one name server setting that shapes answers.
	KindConfig Kind = "config"
	// KindDataVersion is the DataVersion a name server holds for one
	// broker id.
	KindDataVersion Kind = "data-version"
)

// kinds is every kind in listing order.
var kinds = []Kind{KindBroker, KindWritePerm, KindTopic, KindKV, KindConfig, KindDataVersion}

// Kinds returns every kind in listing order.
func Kinds() []Kind { return slices.Clone(kinds) }

// Problem says how the values of one subject disagree.
type Problem string

// The problems.
const (
	// Missing: some name servers have the subject and others do not (in a
	// verification: a target lacks what a reference has).
	Missing Problem = "missing"
	// Different: the name servers have the subject with different values
	// (in a verification: a target's value is none of the references').
	Different Problem = "different"
	// Extra: in a verification, only targets have the subject. It is
	// listed but is not a failure.
	Extra Problem = "extra"
)

// Difference is one subject on which the name servers disagree.
type Difference struct {
	Kind    Kind    `json:"kind"`
	Subject string  `json:"subject"`
	Problem Problem `json:"problem"`
	// Values has one entry per Result.Servers entry: the subject's value
	// there, or nil where the name server does not have it.
	Values []*string `json:"values"`
}

// Summary counts what one name server holds.
type Summary struct {
	Server string `json:"server"`
	// Target is set on the targets of a verification.
	Target bool `json:"target,omitempty"`
	// Brokers counts broker ids (addresses) in the cluster table.
	Brokers int `json:"brokers"`
	// Topics counts the topic list.
	Topics int `json:"topics"`
	// KVKeys counts the keys of the compared namespaces.
	KVKeys int `json:"kvKeys"`
}

// Result is what a comparison found.
type Result struct {
	// Servers are the name servers compared: the references, then the
	// targets of a verification.
	Servers []string `json:"servers"`
	// Targets is how many of the last Servers are targets; 0 in a report.
	Targets   int       `json:"targets"`
	Summaries []Summary `json:"summaries"`
	// Differences are sorted by kind, then subject; at most
	// Options.MaxDifferences of each kind when that is set.
	Differences []Difference `json:"differences"`
	// Found counts every difference that is a failure (all but Extra),
	// kept or not; ByKind splits Found by kind.
	Found  int          `json:"found"`
	ByKind map[Kind]int `json:"byKind"`
	// Extras counts the Extra differences of a verification.
	Extras int `json:"extras"`
	// Omitted counts the differences not kept (Options.MaxDifferences).
	Omitted int `json:"omitted"`
}

// OK reports whether nothing failed: the name servers agree (a report) or
// the targets hold everything the references hold (a verification).
func (r *Result) OK() bool { return r.Found == 0 }

// sortDifferences orders ds by kind, then subject.
func sortDifferences(ds []Difference) {
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Kind != ds[j].Kind {
			return slices.Index(kinds, ds[i].Kind) < slices.Index(kinds, ds[j].Kind)
		}
		return ds[i].Subject < ds[j].Subject
	})
}
