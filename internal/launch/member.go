package launch

import "fmt"

// Member is one raftns member process. The exported fields say how to start
// it; set them before Start and leave them alone while the process runs. A
// Member that is never started still serves the HTTP methods, for a member
// someone else runs. The methods are safe for concurrent use.
type Member struct {
	// ID is passed as --id; empty leaves the choice to raftns.
	ID string
	// Binary is the raftns executable.
	Binary string
	// DataDir, ClientAddr, ClusterAddr and HTTPAddr are passed as
	// --data-dir, --listen, --cluster-addr and --http-addr.
	DataDir     string
	ClientAddr  string
	ClusterAddr string
	HTTPAddr    string
	// Args follow the flags above on the command line.
	Args []string
	// Process is the running member: where its output goes, and how it
	// is stopped and observed.
	Process
}

// NewMember returns a member of binary with three fresh loopback addresses.
func NewMember(binary, id, dataDir string) (*Member, error) {
	m := &Member{ID: id, Binary: binary, DataDir: dataDir}
	for _, p := range []*string{&m.ClientAddr, &m.ClusterAddr, &m.HTTPAddr} {
		addr, err := FreeAddr()
		if err != nil {
			return nil, err
		}
		*p = addr
	}
	return m, nil
}

// Argv returns the arguments Start passes to the binary.
func (m *Member) Argv() []string {
	var args []string
	if m.ID != "" {
		args = append(args, "--id", m.ID)
	}
	args = append(args, "--data-dir", m.DataDir, "--listen", m.ClientAddr,
		"--cluster-addr", m.ClusterAddr, "--http-addr", m.HTTPAddr)
	return append(args, m.Args...)
}

// Start runs the binary with Argv and returns once the process exists. A
// member may be started again after its process has ended.
func (m *Member) Start() error {
	return m.Launch("member "+m.name(), m.Binary, m.Argv()...)
}

// name identifies the member in errors: its ID, else its client address.
func (m *Member) name() string {
	if m.ID != "" {
		return m.ID
	}
	return "at " + m.ClientAddr
}

// logHint names the log file, for an error about a member that writes one.
func (m *Member) logHint() string {
	if m.LogFile == "" || m.Output != nil {
		return ""
	}
	return fmt.Sprintf(" (log: %s)", m.LogFile)
}
