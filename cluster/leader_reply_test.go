package cluster

import (
	"bytes"
	"encoding/gob"
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

// previousLeaderReply is LeaderReply as releases before the applied index
// declare it; net/rpc sends both with gob, which matches fields by name.
type previousLeaderReply struct {
	ErrKind string
	Err     string
	Result  []byte
}

// A member of the previous release reads a reply with the applied index
// as it read replies before (gob skips the field it does not have), and a
// reply from such a member reads as index 0, which makes the member that
// asked fall back to the leader's read index.
func TestLeaderReply_IndexIsInvisibleToThePreviousRelease(t *testing.T) {
	var buf bytes.Buffer
	sent := LeaderReply{Result: []byte("answer"), Index: 1 << 33}
	if err := gob.NewEncoder(&buf).Encode(&sent); err != nil {
		t.Fatal(err)
	}
	var old previousLeaderReply
	if err := gob.NewDecoder(&buf).Decode(&old); err != nil {
		t.Fatalf("the previous release cannot read a reply with the index: %v", err)
	}
	if old.ErrKind != "" || old.Err != "" || string(old.Result) != "answer" {
		t.Fatalf("the previous release reads %+v", old)
	}

	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(&previousLeaderReply{Result: []byte("old answer")}); err != nil {
		t.Fatal(err)
	}
	var got LeaderReply
	if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if string(got.Result) != "old answer" || got.Index != 0 {
		t.Fatalf("a reply of the previous release reads %+v, want its result and index 0", got)
	}
}
