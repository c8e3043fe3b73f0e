package namesrv

import (
	"context"
	"errors"
	"testing"

	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

// TestRequestTable_EveryServedCodeHasItsClass: every code the server
// serves, the controller's included, has a valid access class, the one
// pinned in servedAccess.
func TestRequestTable_EveryServedCodeHasItsClass(t *testing.T) {
	classOf := map[access]acl.Class{freeRead: acl.Read, brokerRead: acl.BrokerRead, brokerWrite: acl.BrokerWrite,
		signedWrite: acl.Write, adminWrite: acl.AdminWrite}
	ts := startTestServer(t, func(c *Config) { c.Controller.Enabled = true })
	if len(ts.srv.dispatch) != len(servedAccess) {
		t.Errorf("%d codes served, %d pinned", len(ts.srv.dispatch), len(servedAccess))
	}
	for code, row := range ts.srv.dispatch {
		pinned, ok := servedAccess[code]
		switch {
		case !row.access.Valid():
			t.Errorf("code %d is served without an access class", code)
		case !ok:
			t.Errorf("code %d (%s) is served but not pinned in servedAccess", code, row.access)
		case row.access != classOf[pinned]:
			t.Errorf("code %d is %s, pinned %s", code, row.access, pinned)
		}
	}
}

// TestRequestTable_RefusesIncompleteRows: a new request code cannot be
// registered without an access class or a handler, nor twice.
func TestRequestTable_RefusesIncompleteRows(t *testing.T) {
	const newCode int32 = 9999
	ts := startTestServer(t, func(c *Config) { c.Controller.Enabled = true })
	table := ts.srv.requestTable()
	write := func(context.Context, *remoting.Conn, *remoting.Command) (*remoting.Command, error) { return nil, nil }
	cases := map[string]codeRow{
		"a write without a class": {code: newCode, read: anyTime, fn: write},
		"a read without a class":  {code: newCode, read: whenReady, fn: write},
		"an unknown class":        {newCode, acl.AdminWrite + 1, anyTime, write},
		"no handler":              {newCode, acl.AdminWrite, anyTime, nil},
		"a code listed twice":     {remoting.PutKVConfig, acl.AdminWrite, anyTime, write},
	}
	for name, row := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := dispatchOf(append(table[:len(table):len(table)], row)); !errors.Is(err, errIncompleteRow) {
				t.Fatalf("dispatchOf = %v, want errIncompleteRow", err)
			}
		})
	}
	complete, err := dispatchOf(append(table[:len(table):len(table)], codeRow{newCode, acl.AdminWrite, anyTime, write}))
	if err != nil || complete[newCode].access != acl.AdminWrite {
		t.Fatalf("a complete row: %v, class %s", err, complete[newCode].access)
	}
}
