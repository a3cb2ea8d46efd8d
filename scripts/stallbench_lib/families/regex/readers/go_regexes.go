// Finds the regexes of Go source files with Go's own parser (go/parser, go/ast), run by `go run`
// from Debian's golang-go (families/regex/languages.py): the calls of package regexp, under any name it is
// imported as, that compile or match a pattern (MustCompile, Compile, MatchString, Match,
// MatchReader and their POSIX forms) whose pattern is a constant: string literals, raw or
// interpreted, `+` of constants, and constants or variables of the file's package level assigned
// one. Anything else is reported as dynamic, with where it is. Go has no flags argument: flags are
// written inside the pattern ((?i)), as the Go engine reads them.
//
// Reads the root and then one file (relative to it) a line on stdin; writes the reply
// families/regex/readers/python_regexes.py describes.
package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var functions = map[string]bool{"MustCompile": true, "Compile": true, "MatchString": true, "Match": true,
	"MatchReader": true, "MustCompilePOSIX": true, "CompilePOSIX": true}

type place struct {
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
	Kind   string   `json:"kind,omitempty"`
	Source *string  `json:"source,omitempty"`
	Flags  *string  `json:"flags,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Why    string   `json:"why,omitempty"`
	Msg    string   `json:"message,omitempty"`
}

type reply struct {
	Regexes  []place `json:"regexes"`
	Dynamic  []place `json:"dynamic"`
	Unparsed []place `json:"unparsed"`
}

// constants: the package-level names of one file assigned exactly one value.
func constants(file *ast.File) map[string]ast.Expr {
	found, twice := map[string]ast.Expr{}, map[string]bool{}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || (gen.Tok != token.CONST && gen.Tok != token.VAR) {
			continue
		}
		for _, spec := range gen.Specs {
			value := spec.(*ast.ValueSpec)
			for i, name := range value.Names {
				if i < len(value.Values) {
					if _, seen := found[name.Name]; seen {
						twice[name.Name] = true
					}
					found[name.Name] = value.Values[i]
				}
			}
		}
	}
	for name := range twice {
		delete(found, name)
	}
	return found
}

func fold(e ast.Expr, values map[string]ast.Expr, seen map[string]bool) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.ParenExpr:
		return fold(e.X, values, seen)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		left, ok1 := fold(e.X, values, seen)
		right, ok2 := fold(e.Y, values, seen)
		return left + right, ok1 && ok2
	case *ast.Ident:
		value, ok := values[e.Name]
		if !ok || seen[e.Name] {
			return "", false
		}
		seen[e.Name] = true
		defer delete(seen, e.Name)
		return fold(value, values, seen)
	}
	return "", false
}

func read(root, name string, out *reply) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filepath.Join(root, name), nil, parser.SkipObjectResolution)
	if err != nil {
		p := place{File: name, Msg: err.Error()}
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			p.Line, p.Column, p.Msg = list[0].Pos.Line, list[0].Pos.Column, list[0].Msg
		}
		out.Unparsed = append(out.Unparsed, p)
		return
	}
	imported := map[string]bool{}
	for _, spec := range file.Imports {
		if path, _ := strconv.Unquote(spec.Path.Value); path == "regexp" {
			name := "regexp"
			if spec.Name != nil {
				name = spec.Name.Name
			}
			imported[name] = true
		}
	}
	if len(imported) == 0 {
		return
	}
	values := constants(file)
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !functions[sel.Sel.Name] {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !imported[pkg.Name] {
			return true
		}
		at := fset.Position(call.Pos())
		p := place{File: name, Line: at.Line, Column: at.Column, Kind: "regexp." + sel.Sel.Name}
		if source, ok := fold(call.Args[0], values, map[string]bool{}); ok {
			flags := ""
			p.Source, p.Flags = &source, &flags
			if strings.HasSuffix(sel.Sel.Name, "POSIX") {
				p.Notes = []string{"POSIX leftmost-longest matching is measured as leftmost-first"}
			}
			out.Regexes = append(out.Regexes, p)
		} else {
			p.Why = "the pattern is not a constant"
			out.Dynamic = append(out.Dynamic, p)
		}
		return true
	})
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := reply{Regexes: []place{}, Dynamic: []place{}, Unparsed: []place{}}
	root := ""
	for first := true; in.Scan(); first = false {
		if first {
			root = in.Text()
		} else if in.Text() != "" {
			read(root, in.Text(), &out)
		}
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
