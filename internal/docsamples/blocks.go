// Package docsamples finds what README.md and docs/ tell a reader to type or
// copy: the fenced code blocks of every Markdown file, and the command lines
// in their shell blocks. Tests run or parse each one with the real code, so
// the documentation cannot drift from the programs.
//
// Every fenced block names its kind in its info string:
//
//	sh (or bash, shell)  commands, interpreted (nothing is executed)
//	properties           a raftns configuration file; with a second word
//	                     (properties broker.conf) another program's file
//	yaml, json           a file; a second word names which (yaml acl,
//	                     json peers.json) for its loader
//	ini                  a systemd unit or another INI file
//	text                 output, a synopsis or anything not to be checked
//
// A block without one is an error, so a new document cannot slip past.
package docsamples

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Block is one fenced code block of a Markdown file.
type Block struct {
	// File is the Markdown file, relative to the repository root, with
	// forward slashes.
	File string
	// Line is the 1-based line of the block's first content line.
	Line int
	// Lang is the first word of the info string; Attrs the other words.
	Lang  string
	Attrs []string
	// Text is the block's content.
	Text string
}

// Where names the block for an error message, as FILE:LINE.
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// Attr returns the first attribute, or "" when the info string has one word.
func (b Block) Attr() string {
	if len(b.Attrs) == 0 {
		return ""
	}
	return b.Attrs[0]
}

// MarkdownFiles returns README.md and every .md file under docs/ of the
// repository at root, relative to root, sorted.
func MarkdownFiles(root string) ([]string, error) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files[1:])
	return files, err
}

// Blocks returns the fenced code blocks of every file MarkdownFiles names.
func Blocks(root string) ([]Block, error) {
	files, err := MarkdownFiles(root)
	if err != nil {
		return nil, err
	}
	var blocks []Block
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, FencedBlocks(f, src)...)
	}
	return blocks, nil
}

// FencedBlocks returns the fenced code blocks of one Markdown document,
// nested ones (in lists, quotes) included, as CommonMark reads them.
func FencedBlocks(file string, src []byte) []Block {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var blocks []Block
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fb, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		b := Block{File: file}
		if fb.Info != nil {
			words := strings.Fields(string(fb.Info.Segment.Value(src)))
			if len(words) > 0 {
				b.Lang, b.Attrs = strings.ToLower(words[0]), words[1:]
			}
		}
		var body bytes.Buffer
		lines := fb.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			if i == 0 {
				b.Line = 1 + bytes.Count(src[:seg.Start], []byte("\n"))
			}
			body.Write(seg.Value(src))
		}
		if lines.Len() == 0 {
			b.Line = 1 + bytes.Count(src[:fencePos(fb, src)], []byte("\n"))
		}
		b.Text = body.String()
		blocks = append(blocks, b)
		return ast.WalkSkipChildren, nil
	})
	return blocks
}

// fencePos is a byte offset on an empty block's opening fence line.
func fencePos(fb *ast.FencedCodeBlock, src []byte) int {
	if fb.Info != nil {
		return fb.Info.Segment.Start
	}
	return 0
}
