package main

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/raftns/raftns/internal/docsamples"
)

// parseOnly resolves args against raftnsctl's command tree and checks
// them as an execution would before running: a runnable command, its flags
// and the number of its arguments. Nothing is sent.
func parseOnly(args []string, getenv func(string) string) error {
	a := &app{stdout: io.Discard, stderr: io.Discard}
	root := a.rootCommand(getenv)
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	if !cmd.Runnable() || cmd.HasSubCommands() {
		return fmt.Errorf("%q is not a command (its subcommands are)", cmd.CommandPath())
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		return err
	}
	if err := cmd.ValidateRequiredFlags(); err != nil {
		return err
	}
	if err := cmd.ValidateFlagGroups(); err != nil {
		return err
	}
	return a.validate(cmd, nil)
}

// TestDocs_RaftnsctlCommandLinesParse checks every raftnsctl command line
// that README.md and docs/ show against the real command tree.
func TestDocs_RaftnsctlCommandLinesParse(t *testing.T) {
	cmds, err := docsamples.ProgramCommands(filepath.Join("..", ".."), "raftnsctl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		env := c.Env
		if err := parseOnly(c.Args[1:], func(k string) string { return env[k] }); err != nil {
			t.Errorf("%s: %v\n\t%q", c.Where(), err, c.Args)
		}
	}
}

func TestParseOnly_RefusesWhatRunWould(t *testing.T) {
	none := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"peers", "list"}, true},
		{[]string{"peers", "remove", "n4", "--drain", "60s"}, true},
		{[]string{"peers"}, false},
		{[]string{"peers", "bogus"}, false},
		{[]string{"frob"}, false},
		{[]string{"peers", "remove", "n4", "--dran", "60s"}, false},
		{[]string{"leader", "transfer", "[--to", "n3]"}, false},
	} {
		if err := parseOnly(tc.args, none); (err == nil) != tc.ok {
			t.Errorf("%q: err = %v, want ok=%v", tc.args, err, tc.ok)
		}
	}
}
