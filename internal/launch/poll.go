package launch

import "github.com/raftns/raftns/internal/poll"

// Poll waits for a condition; it is poll.Until under the name launch's
// callers know.
var Poll = poll.Until
