package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strconv"
	"strings"
	"testing"
)

// Every snapshot record type declared in this package (a uint8 constant
// named rec...) is in the registry with a name, so that snapshot inspect
// never shows a type of this release by number.
func TestRecordTypeName_NamesEveryDeclaredType(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok || vs.Type == nil || typeName(vs.Type) != "uint8" {
					return true
				}
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "rec") || i >= len(vs.Values) {
						continue
					}
					declared++
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						t.Errorf("%s is not a literal", name.Name)
						continue
					}
					v, err := strconv.ParseUint(lit.Value, 10, 8)
					if err != nil {
						t.Errorf("%s = %s: %v", name.Name, lit.Value, err)
						continue
					}
					if _, ok := RecordTypeName(uint8(v)); !ok {
						t.Errorf("record type %s (%d) has no name", name.Name, v)
					}
				}
				return true
			})
		}
	}
	if named := len(snapshotRecordByType) + 1; declared < 16 || declared != named { // +1: the meta record
		t.Errorf("found %d record type constants, %d named record types", declared, named)
	}
	if _, ok := RecordTypeName(200); ok {
		t.Error("an undeclared type has a name")
	}
}

func typeName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
