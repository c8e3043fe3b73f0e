package namesrv

import (
	"context"
	"errors"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

// answerError is a non-SUCCESS answer a handler chose: the code and remark
// as the reference NameServer words them (a missing header field, a body
// that does not decode, an unknown key, a switched-off list).
type answerError struct {
	code   int32
	remark string
	// ext, when non-nil, is sent as the answer's extFields (the reference
	// sends an empty map with some not-found answers).
	ext map[string]string
}

func (e *answerError) Error() string { return e.remark }

// badRequest answers SYSTEM_ERROR with msg, which is how the reference
// answers a request it cannot read.
func badRequest(msg string) error { return &answerError{code: remoting.SystemError, remark: msg} }

// refused answers code with remark.
func refused(code int32, remark string) error { return &answerError{code: code, remark: remark} }

// errorResponse maps a handler's error to the RocketMQ answer. It is the
// only place errors become answers: a controller refusal (*state.Refused)
// keeps the reference controller's code and remark.
func errorResponse(req *remoting.Command, err error) *remoting.Command {
	var ae *answerError
	var denied *state.Refused
	switch {
	case errors.As(err, &ae):
		resp := remoting.NewResponse(req, ae.code, ae.remark)
		resp.ExtFields = ae.ext
		return resp
	case errors.As(err, &denied):
		return remoting.NewResponse(req, refusalCode(denied.Reason), denied.Remark)
	case errors.Is(err, cluster.ErrNotVisibleYet):
		return remoting.NewResponse(req, remoting.SystemError, RemarkNotVisibleYet+err.Error())
	case errors.Is(err, cluster.ErrOutcomeUnknown), errors.Is(err, fsm.ErrSuperseded):
		return remoting.NewResponse(req, remoting.SystemError, RemarkOutcomeUnknown+err.Error())
	case errors.Is(err, cluster.ErrNoLeader), errors.Is(err, cluster.ErrLeaderNotReady), errors.Is(err, cluster.ErrNotLeader):
		return remoting.NewResponse(req, remoting.SystemError, RemarkNotApplied+err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return remoting.NewResponse(req, remoting.SystemError, "raftns: write timed out, outcome unknown: "+err.Error())
	}
	return remoting.NewResponse(req, remoting.SystemError, err.Error())
}

// refusalCodes are the reference controller's response codes of the
// controller's refusals.
var refusalCodes = map[state.ControllerRefusal]int32{
	state.RefusalNotRegistered:           remoting.ControllerBrokerNeedToBeRegistered,
	state.RefusalBrokerIDInvalid:         remoting.ControllerBrokerIDInvalid,
	state.RefusalInvalidMaster:           remoting.ControllerInvalidMaster,
	state.RefusalFencedMasterEpoch:       remoting.ControllerFencedMasterEpoch,
	state.RefusalFencedSyncStateSetEpoch: remoting.ControllerFencedSyncStateSetEpoch,
	state.RefusalInvalidReplicas:         remoting.ControllerInvalidReplicas,
	state.RefusalAlterFailed:             remoting.ControllerAlterSyncStateSetFailed,
	state.RefusalStaleElection:           remoting.ControllerElectMasterFailed,
	state.RefusalBrokerNotAlive:          remoting.ControllerBrokerNotAlive,
	state.RefusalNoMetadata:              remoting.ControllerBrokerMetadataNotExist,
	state.RefusalCleanInvalid:            remoting.ControllerInvalidCleanBrokerMetadata,
	state.RefusalMasterNotAvailable:      remoting.ControllerMasterNotAvailable,
	state.RefusalElectFailed:             remoting.ControllerElectMasterFailed,
}

// refusalCode returns a refusal's response code; SYSTEM_ERROR for one
// without, so that a refusal never reads as SUCCESS.
func refusalCode(r state.ControllerRefusal) int32 {
	if code, ok := refusalCodes[r]; ok {
		return code
	}
	return remoting.SystemError
}

// The SYSTEM_ERROR remarks of a failed write say whether it may have been
// applied (docs/operators/operations.md, "When a write fails").
const (
	// RemarkNotApplied: no leader took the write; nothing was applied.
	RemarkNotApplied = "raftns: no leader available, nothing was applied; retry another name server: "
	// RemarkOutcomeUnknown: a leader may have applied the write.
	RemarkOutcomeUnknown = "raftns: outcome unknown, the write may have been applied; retrying it is safe: "
	// RemarkNotVisibleYet: the write was applied, but the member that took
	// it has not applied it itself in time, so its reads do not show it yet.
	RemarkNotVisibleYet = "raftns: the write was applied, but this name server does not show it yet; " +
		"it will once it catches up with the leader (retrying the write is safe): "
	// RemarkBehindOwnWrite answers a request that would read local state
	// while it does not yet show a write this member answered, and did not
	// catch up in time.
	RemarkBehindOwnWrite = "raftns: this name server does not show a write it answered yet; " +
		"it will once it catches up with the leader (retrying is safe): "
	// RemarkRemoved answers every request to a member removed from the
	// cluster.
	RemarkRemoved = "raftns: this name server was removed from the cluster; nothing was applied; use another name server"
)

// success returns an empty SUCCESS answer.
func success(req *remoting.Command) *remoting.Command {
	return remoting.NewResponse(req, remoting.Success, "")
}
