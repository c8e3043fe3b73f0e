package state

import (
	"fmt"
	"maps"
	"slices"
)

// keyedTable is a table of values that are never changed in place, each
// stored under a key it carries and written as one record of its own type:
// the member directory, drains, standings, pending notices, live entries.
// A thaw copies the map; walk writes the values in key order.
type keyedTable[K comparable, V any] struct {
	m map[K]V
	// rec is the values' record type and what names them in errors.
	rec  uint8
	what string
	// key is a value's key and order the key order; with idRequired a
	// restored value with the zero key is refused.
	key        func(*V) K
	order      func(a, b K) int
	idRequired bool
}

func (t *keyedTable[K, V]) thaw() table {
	c := *t
	c.m = maps.Clone(t.m)
	return &c
}

func (t *keyedTable[K, V]) walk(emit emitFunc) error {
	for _, k := range slices.SortedFunc(maps.Keys(t.m), t.order) {
		v := t.m[k]
		if err := emit(t.rec, &v); err != nil {
			return err
		}
	}
	return nil
}

func (t *keyedTable[K, V]) restore(_ *restorer, _ uint8, payload []byte) error {
	v, err := decode[V](payload)
	if err != nil {
		return err
	}
	k := t.key(v)
	var zero K
	if t.idRequired && k == zero {
		return fmt.Errorf("%s without an id", t.what)
	}
	if _, ok := t.m[k]; ok {
		return duplicate(t.what, k)
	}
	t.m[k] = *v
	return nil
}
