package cluster

import (
	"errors"
	"fmt"
	"testing"
)

// The errors a caller acts on keep their identity across the trip from the
// leader; any other becomes a plain error with the leader's text.
func TestLeaderReply_ErrorsKeepTheirKindAcrossTheTrip(t *testing.T) {
	for _, want := range []error{ErrNotLeader, ErrLeaderNotReady, ErrOutcomeUnknown, ErrUnknownMember} {
		var r LeaderReply
		setReply(&r, fmt.Errorf("%w: n1", want))
		if got := replyErr(&r); !errors.Is(got, want) {
			t.Errorf("%v came back as %v", want, got)
		}
	}
	var r LeaderReply
	setReply(&r, errors.New("disk full"))
	if got := replyErr(&r); got == nil || got.Error() != "disk full" || errors.Is(got, ErrUnknownMember) {
		t.Errorf("other error came back as %v", got)
	}
}
