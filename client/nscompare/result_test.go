package nscompare

import (
	"slices"
	"testing"
)

func TestSortDifferences_ByKindInListingOrderThenSubject(t *testing.T) {
	want := []Difference{
		{Kind: KindBroker, Subject: "y"},
		{Kind: KindBroker, Subject: "z"},
		{Kind: KindWritePerm, Subject: "a"},
		{Kind: KindTopic, Subject: "a"},
		{Kind: KindKV, Subject: "a"},
		{Kind: KindKV, Subject: "b"},
		{Kind: KindConfig, Subject: "a"},
		{Kind: KindDataVersion, Subject: "a"},
	}
	ds := slices.Clone(want)
	slices.Reverse(ds)
	sortDifferences(ds)
	if !slices.EqualFunc(ds, want, func(a, b Difference) bool { return a.Kind == b.Kind && a.Subject == b.Subject }) {
		t.Fatalf("sorted:\n%v\nwant:\n%v", ds, want)
	}
}

func TestKinds_ReturnsACopy(t *testing.T) {
	k := Kinds()
	k[0] = "changed"
	if Kinds()[0] != KindBroker {
		t.Fatalf("Kinds()[0] = %q after a caller changed its copy", Kinds()[0])
	}
}
