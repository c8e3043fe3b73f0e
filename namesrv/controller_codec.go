package namesrv

import (
	"strconv"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

// What the controller's request handlers (controller_requests.go) share.

// answer returns a SUCCESS answer with ext and b.
func answer(req *remoting.Command, ext map[string]string, b []byte) *remoting.Command {
	resp := success(req)
	resp.ExtFields, resp.Body = ext, b
	return resp
}

// masterFields adds a group's master and master epoch to ext.
func masterFields(ext map[string]string, g *state.ReplicaGroup) {
	if g.HasMaster {
		ext["masterBrokerId"] = strconv.FormatInt(g.MasterID, 10)
		ext["masterAddress"] = g.MasterAddr()
	}
	ext["masterEpoch"] = itoa32(g.MasterEpoch)
}

func itoa32(v int32) string { return strconv.FormatInt(int64(v), 10) }
