package namesrv

import (
	"maps"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

// TestRegistrationCache_AnswersAsTheFullPath: a heartbeat the registration
// cache recognises gets the answer the full path (decode, WouldChange,
// answer from local state) gives the same registration at the same
// generation, for a master and for a slave, whose answer names its master.
func TestRegistrationCache_AnswersAsTheFullPath(t *testing.T) {
	_, cc, send := countingServer(t)
	slave := func() *remoting.Command {
		r := registerRequest(t, 10, 1)
		r.ExtFields["brokerId"], r.ExtFields["brokerAddr"], r.ExtFields["haServerAddr"] = "1", "10.0.0.2:10911", "10.0.0.2:10912"
		return r
	}
	send(registerRequest(t, 10, 1))
	send(slave())
	for name, req := range map[string]func() *remoting.Command{
		"master": func() *remoting.Command { return registerRequest(t, 10, 1) },
		"slave":  slave,
	} {
		decoded, recognised := cc.decoded, cc.recognised
		full := send(req())
		if cc.decoded != decoded+1 {
			t.Fatalf("%s: the first heartbeat after the writes was not decoded", name)
		}
		cached := send(req())
		if cc.decoded != decoded+1 || cc.recognised != recognised+1 {
			t.Fatalf("%s: the second heartbeat was not recognised (decoded %d, recognised %d)", name, cc.decoded-decoded, cc.recognised-recognised)
		}
		if cached.Code != full.Code || cached.Remark != full.Remark || !maps.Equal(cached.ExtFields, full.ExtFields) ||
			string(cached.Body) != string(full.Body) {
			t.Fatalf("%s: recognised heartbeat answered %d %q %v %q; the full path answered %d %q %v %q", name,
				cached.Code, cached.Remark, cached.ExtFields, cached.Body, full.Code, full.Remark, full.ExtFields, full.Body)
		}
		if name == "slave" && full.ExtFields["masterAddr"] != "10.0.0.1:10911" {
			t.Fatalf("slave's answer names master %q, want 10.0.0.1:10911", full.ExtFields["masterAddr"])
		}
	}
}
