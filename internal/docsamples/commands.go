package docsamples

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Command is one command line a shell block runs, with its words expanded
// as a shell would: variables set earlier in the same document, loops,
// quotes and continuation lines resolved.
type Command struct {
	Block Block
	// Line is the 1-based line in Block.File.
	Line int
	// Args is the command line, the program first. A command run through
	// a wrapper (kubectl exec POD -- raftnsctl ..., sudo raftns ...) is
	// also listed on its own, from the wrapped program on.
	Args []string
	// Env holds the variables exported when the command runs.
	Env map[string]string
	// Dir is the working directory, relative to the repository root.
	Dir string
}

// Where names the command for an error message, as FILE:LINE.
func (c Command) Where() string { return fmt.Sprintf("%s:%d", c.Block.File, c.Line) }

// Program is the base name of the command's program.
func (c Command) Program() string { return path.Base(c.Args[0]) }

// ShellLangs are the info strings of blocks interpreted as shell commands.
var ShellLangs = map[string]bool{"sh": true, "bash": true, "shell": true}

// wrappers run the command line that follows them; the wrapped command
// starts at the first later word naming one of wrapped.
var wrappers = map[string]bool{"sudo": true, "env": true, "kubectl": true, "docker": true, "ssh": true, "nohup": true, "time": true}

// Commands interprets the shell blocks of blocks, one document at a time
// and in order, so a variable one block sets is known to the later ones.
// Nothing is executed: every command that is not a shell builtin is
// recorded and succeeds silently, and redirections go nowhere. An unset
// variable, a syntax error or a cd into a missing directory is an error
// naming the block. wrapped lists the programs whose lines are also
// recorded when a wrapper runs them.
func Commands(root string, blocks []Block, wrapped ...string) ([]Command, []error) {
	var cmds []Command
	var errs []error
	byFile := map[string][]Block{}
	var order []string
	for _, b := range blocks {
		if !ShellLangs[b.Lang] {
			continue
		}
		if _, ok := byFile[b.File]; !ok {
			order = append(order, b.File)
		}
		byFile[b.File] = append(byFile[b.File], b)
	}
	for _, f := range order {
		c, e := documentCommands(root, byFile[f], wrapped)
		cmds, errs = append(cmds, c...), append(errs, e...)
	}
	return cmds, errs
}

func documentCommands(root string, blocks []Block, wrapped []string) ([]Command, []error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, []error{err}
	}
	var cmds []Command
	var errs []error
	var current Block
	var stderr bytes.Buffer
	var mu sync.Mutex // the two sides of a pipeline run at once
	record := func(ctx context.Context, args []string) error {
		mu.Lock()
		defer mu.Unlock()
		hc := interp.HandlerCtx(ctx)
		c := Command{Block: current, Line: current.Line + int(hc.Pos.Line()) - 1, Args: args, Env: map[string]string{}, Dir: relDir(root, hc.Dir)}
		hc.Env.Each(func(name string, vr expand.Variable) bool {
			if vr.Exported && vr.Kind == expand.String {
				c.Env[name] = vr.Str
			}
			return true
		})
		cmds = append(cmds, c)
		if wrappers[c.Program()] {
			for i := 1; i < len(args); i++ {
				if contains(wrapped, path.Base(args[i])) && namesProgram(args[i]) {
					inner := c
					inner.Args = args[i:]
					cmds = append(cmds, inner)
					break
				}
			}
		}
		return nil
	}
	runner, err := interp.New(
		interp.Dir(root),
		interp.Env(expand.ListEnviron("HOME=/root", "PATH=/usr/bin:/bin")),
		interp.Params("-u"),
		interp.StdIO(strings.NewReader(""), io.Discard, &stderr),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return record }),
		interp.OpenHandler(func(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
			return nowhere{}, nil
		}),
	)
	if err != nil {
		return nil, []error{err}
	}
	for _, b := range blocks {
		current = b
		stderr.Reset()
		file, err := syntax.NewParser().Parse(strings.NewReader(b.Text), b.Where())
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: shell syntax: %w", b.Where(), err))
			continue
		}
		// Nothing runs, so a background job may as well finish first; it
		// then belongs to its block and comes in order.
		syntax.Walk(file, func(n syntax.Node) bool {
			if st, ok := n.(*syntax.Stmt); ok {
				st.Background = false
			}
			return true
		})
		if err := runner.Run(context.Background(), file); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w: %s", b.Where(), err, strings.TrimSpace(stderr.String())))
		}
		runner.Dir = root // a cd stays in its block
	}
	return cmds, errs
}

// namesProgram reports whether word can name a program to run: a bare
// name, or a path (statefulset/raftns names a Kubernetes object).
func namesProgram(word string) bool {
	return !strings.Contains(word, "/") || strings.HasPrefix(word, "/") || strings.HasPrefix(word, "./") || strings.HasPrefix(word, "bin/")
}

func relDir(root, dir string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(dir, root), "/")
	if rel == "" {
		return "."
	}
	return rel
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nowhere is what a redirection opens: reads find nothing, writes vanish.
type nowhere struct{}

func (nowhere) Read([]byte) (int, error)    { return 0, io.EOF }
func (nowhere) Write(p []byte) (int, error) { return len(p), nil }
func (nowhere) Close() error                { return nil }

// ProgramCommands returns the command lines of README.md and docs/ under
// root that run program, directly or through a wrapper; an error when the
// documents cannot be read or name it nowhere.
func ProgramCommands(root, program string) ([]Command, error) {
	blocks, err := Blocks(root)
	if err != nil {
		return nil, err
	}
	all, _ := Commands(root, blocks, program)
	var cmds []Command
	for _, c := range all {
		if c.Program() == program {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("no %s command line in README.md and docs/", program)
	}
	return cmds, nil
}
