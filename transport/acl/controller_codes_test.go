package acl

import (
	"testing"

	"github.com/raftns/raftns/transport/remoting"
)

// TestIsWrite_ControllerCodes: the controller requests that change state
// are writes (checked in "writes" mode); the reads are not.
func TestIsWrite_ControllerCodes(t *testing.T) {
	for _, code := range []int32{remoting.ControllerApplyBrokerID, remoting.ControllerRegisterBroker,
		remoting.ControllerElectMaster, remoting.ControllerAlterSyncStateSet, remoting.UpdateControllerConfig, remoting.CleanBrokerData} {
		if !IsWrite(code) {
			t.Errorf("code %d is not a write", code)
		}
	}
	for _, code := range []int32{remoting.ControllerGetMetadataInfo, remoting.ControllerGetReplicaInfo, remoting.ControllerGetSyncStateData} {
		if IsWrite(code) {
			t.Errorf("code %d is a write", code)
		}
	}
}
