package docsamples

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Link is one Markdown link's destination and the heading anchors of the
// document it is in.
type Link struct {
	File string
	Dest string
}

// Where names the link for an error message.
func (l Link) Where() string { return fmt.Sprintf("%s: link %s", l.File, l.Dest) }

// Links returns the destinations of a document's links, and the anchors its
// headings get on GitHub (lower case, punctuation dropped, spaces to
// hyphens, -1, -2 … for repeats).
func Links(file string, src []byte) ([]Link, map[string]bool) {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	var links []Link
	anchors := map[string]bool{}
	seen := map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			links = append(links, Link{File: file, Dest: string(n.Destination)})
		case *ast.Heading:
			slug := headingSlug(plainText(n, src))
			if k := seen[slug]; k > 0 {
				anchors[fmt.Sprintf("%s-%d", slug, k)] = true
			} else {
				anchors[slug] = true
			}
			seen[slug]++
		}
		return ast.WalkContinue, nil
	})
	return links, anchors
}

// plainText is a heading's text as GitHub slugs it: code spans keep their
// content, emphasis marks go.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

var spaces = regexp.MustCompile(` `)

func headingSlug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == ' ' {
			b.WriteRune(r)
		}
	}
	return spaces.ReplaceAllString(b.String(), "-")
}
