package main

import (
	"errors"
	"fmt"
)

// Sentinel errors of raftnsctl.
var (
	// errUsage marks a command line that cannot be run; it exits with 2.
	errUsage = errors.New("raftnsctl: usage")
	// errAdminUnreachable means the admin HTTP API did not answer.
	errAdminUnreachable = errors.New("raftnsctl: admin API unreachable")
	// errInterrupted means the command was interrupted (SIGINT, SIGTERM).
	errInterrupted = errors.New("raftnsctl: interrupted")
	// errBadAnswer means an answer could not be understood.
	errBadAnswer = errors.New("raftnsctl: unexpected answer")
	// errBadSnapshot means a snapshot file or download failed verification.
	errBadSnapshot = errors.New("raftnsctl: snapshot failed verification")
	// errConflict means an operation would undo more than it says.
	errConflict = errors.New("raftnsctl: conflict")
	// errNotRaftNS means migrate --to named a server that is not a
	// RaftNS member.
	errNotRaftNS = errors.New("raftnsctl: not a RaftNS member")
	// errNotFound means the name server has no such topic, key or namespace.
	errNotFound = errors.New("raftnsctl: not found")
)

// usageError is a command line that cannot be run; its message is shown
// with a pointer to --help.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func (e *usageError) Is(target error) bool { return target == errUsage }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// apiError is a non-2xx answer of the admin API, with the text of its
// JSON "error" field (or of the body when it is not JSON).
type apiError struct {
	Status  int
	Message string
	// Reason is the answer's "reason" field, set on the refusals a client
	// acts on (adminapi.ReasonNotAnswering).
	Reason string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s (HTTP %d)", e.Message, e.Status)
}
