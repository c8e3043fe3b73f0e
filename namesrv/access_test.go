package namesrv

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

// access is what one request code needs under access control, as the
// decisions below observe it.
type access string

const (
	freeRead    access = "read"         // signed only in mode all
	brokerRead  access = "broker read"  // a read the broker allow-list also covers
	brokerWrite access = "broker write" // a write the broker allow-list also covers
	signedWrite access = "signed write" // a write any account may sign
	adminWrite  access = "admin write"  // a write only an admin account may sign
)

// servedAccess pins the access of every code the server serves, the
// controller's included. A code served without an entry here fails
// TestAccess_EveryServedCodeDecidesAsPinned.
var servedAccess = map[int32]access{
	remoting.PutKVConfig:                  adminWrite,
	remoting.GetKVConfig:                  freeRead,
	remoting.DeleteKVConfig:               adminWrite,
	remoting.RegisterBroker:               brokerWrite,
	remoting.UnregisterBroker:             brokerWrite,
	remoting.GetRouteInfoByTopic:          freeRead,
	remoting.GetBrokerClusterInfo:         freeRead,
	remoting.WipeWritePermOfBroker:        adminWrite,
	remoting.AddWritePermOfBroker:         adminWrite,
	remoting.GetAllTopicListFromNameSrv:   freeRead,
	remoting.DeleteTopicInNameSrv:         adminWrite,
	remoting.RegisterTopicInNameSrv:       adminWrite,
	remoting.GetKVListByNamespace:         freeRead,
	remoting.GetTopicsByCluster:           freeRead,
	remoting.GetSystemTopicListFromNS:     freeRead,
	remoting.GetUnitTopicList:             freeRead,
	remoting.GetHasUnitSubTopicList:       freeRead,
	remoting.GetHasUnitSubUnunitTopicList: freeRead,
	remoting.UpdateNamesrvConfig:          adminWrite,
	remoting.GetNamesrvConfig:             freeRead,
	remoting.QueryDataVersion:             brokerRead,
	remoting.GetBrokerMemberGroup:         freeRead,
	remoting.BrokerHeartbeat:              brokerWrite,
	remoting.ControllerAlterSyncStateSet:  signedWrite,
	remoting.ControllerElectMaster:        signedWrite,
	remoting.ControllerRegisterBroker:     signedWrite,
	remoting.ControllerGetReplicaInfo:     freeRead,
	remoting.ControllerGetMetadataInfo:    freeRead,
	remoting.ControllerGetSyncStateData:   freeRead,
	remoting.UpdateControllerConfig:       adminWrite,
	remoting.GetControllerConfig:          freeRead,
	remoting.CleanBrokerData:              adminWrite,
	remoting.ControllerGetNextBrokerID:    freeRead,
	remoting.ControllerApplyBrokerID:      signedWrite,
}

// The three situations that tell the accesses apart: whether each refuses
// a request, in the order unsigned under mode writes, unsigned from an
// allowed broker address under mode all, signed by a non-admin account
// under mode all.
var refusals = map[access][3]bool{
	freeRead:    {false, true, false},
	brokerRead:  {false, false, false},
	brokerWrite: {true, false, false},
	signedWrite: {true, true, false},
	adminWrite:  {true, true, true},
}

const accessAccounts = "accounts:\n- accessKey: operator\n  secretKey: operator-secret\n  admin: true\n" +
	"- accessKey: someone\n  secretKey: someone-secret\n  admin: false\n"

// TestAccess_EveryServedCodeDecidesAsPinned sends every served code, with
// the controller on, in the three situations and compares access
// control's decision with the code's pinned access.
func TestAccess_EveryServedCodeDecidesAsPinned(t *testing.T) {
	situations := []struct {
		name    string
		mode    acl.Mode
		brokers []string
		signer  string
	}{
		{"unsigned, mode writes", acl.Writes, nil, ""},
		{"unsigned from a broker address, mode all", acl.All, []string{"127.0.0.1"}, ""},
		{"signed by a non-admin, mode all", acl.All, nil, "someone"},
	}
	path := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(path, []byte(accessAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	accounts, err := acl.LoadAccounts(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, sit := range situations {
		checker, err := acl.NewChecker(sit.mode, accounts, sit.brokers)
		if err != nil {
			t.Fatal(err)
		}
		ts := startTestServer(t, func(c *Config) { c.ACL, c.Controller.Enabled = checker, true })
		served := ts.servedCodes()
		if i == 0 {
			pinned := slices.Sorted(maps.Keys(servedAccess))
			if !slices.Equal(served, pinned) {
				t.Fatalf("served codes %v, pinned %v: pin the access of every served code", served, pinned)
			}
		}
		for _, code := range served {
			ext := map[string]string{}
			if sit.signer != "" {
				ext[acl.FieldAccessKey] = sit.signer
				ext[acl.FieldSignature] = acl.Sign(ext, nil, sit.signer+"-secret")
			}
			resp := ts.call(t, req(code, 0, ext, nil))
			refused := resp.Code == remoting.NoPermission && strings.HasPrefix(resp.Remark, "raftns acl")
			if want := refusals[servedAccess[code]][i]; refused != want {
				t.Errorf("%s: code %d (%s) refused %v, want %v (answer %d %q)",
					sit.name, code, servedAccess[code], refused, want, resp.Code, resp.Remark)
			}
		}
	}
}

// servedCodes lists the codes the server dispatches, in ascending order.
func (ts *testServer) servedCodes() []int32 { return slices.Sorted(maps.Keys(ts.srv.dispatch)) }
