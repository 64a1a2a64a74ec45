package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
)

// gateSpec is a feature gate's state as a release ships it: its stage and
// whether it is on by default (and locked there).
type gateSpec struct {
	stage  string // alpha, beta, GA, deprecated
	on     bool
	locked bool
	// since is the minor version a versioned spec starts at ("1.35" is 35);
	// 0 for an unversioned spec, the form older releases keep (client-go's
	// until 1.34, the apiserver's until 1.31).
	since int
}

func (s gateSpec) String() string {
	out := s.stage + ", off"
	if s.on {
		out = s.stage + ", on"
	}
	if s.locked {
		out += ", locked"
	}
	return out
}

// gateIn reads a release's list of feature gates (client-go's
// features/known_features.go, the apiserver's pkg/features/kube_features.go)
// and returns the spec the gate has in release 1.minor. A file lists a gate
// in one of two forms, and both are read:
//
//	WatchListClient: {Default: false, PreRelease: Beta},          // up to 1.34
//	WatchListClient: {                                              // since 1.35
//		{Version: version.MustParse("1.30"), Default: false, PreRelease: Beta},
//		{Version: version.MustParse("1.35"), Default: true, PreRelease: Beta},
//	},
//
// In the versioned form the spec in force is the last one whose version is
// not after the release: what a binary of that release gets by default. ok is
// false when the file, or the gate in it, is not there yet.
func gateIn(path, gate string, minor int) (spec gateSpec, ok bool, err error) {
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return gateSpec{}, false, nil
	}
	if err != nil {
		return gateSpec{}, false, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return gateSpec{}, false, err
	}
	var specs []gateSpec
	ast.Inspect(f, func(n ast.Node) bool {
		kv, isKV := n.(*ast.KeyValueExpr)
		if specs != nil || !isKV || name(kv.Key) != gate {
			return specs == nil
		}
		// The gate is also a key in maps that are not its specs (kube's
		// list of a gate's dependencies: WatchList: {}); those hold no
		// spec and the search goes on.
		if lit, isLit := kv.Value.(*ast.CompositeLit); isLit {
			specs, err = specsOf(lit)
		}
		return false
	})
	if err != nil || specs == nil {
		return gateSpec{}, false, err
	}
	for _, s := range specs {
		if s.since <= minor {
			spec, ok = s, true
		}
	}
	return spec, ok, nil
}

// specsOf reads {Default: ..., PreRelease: ...}, or a list of them each
// with its Version.
func specsOf(lit *ast.CompositeLit) ([]gateSpec, error) {
	if len(lit.Elts) == 0 {
		return nil, nil
	}
	if _, single := lit.Elts[0].(*ast.KeyValueExpr); single {
		s, err := specOf(lit)
		return []gateSpec{s}, err
	}
	var specs []gateSpec
	for _, e := range lit.Elts {
		inner, isLit := e.(*ast.CompositeLit)
		if !isLit {
			return nil, fmt.Errorf("a gate's versioned spec is not a literal")
		}
		s, err := specOf(inner)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	return specs, nil
}

func specOf(lit *ast.CompositeLit) (gateSpec, error) {
	var s gateSpec
	for _, e := range lit.Elts {
		kv, isKV := e.(*ast.KeyValueExpr)
		if !isKV {
			return s, fmt.Errorf("a gate's spec has an element without a key")
		}
		switch name(kv.Key) {
		case "Default":
			s.on = name(kv.Value) == "true"
		case "LockToDefault":
			s.locked = name(kv.Value) == "true"
		case "PreRelease":
			s.stage = map[string]string{"Alpha": "alpha", "Beta": "beta", "GA": "GA", "Deprecated": "deprecated"}[name(kv.Value)]
		case "Version":
			// version.MustParse("1.35"); a few releases write "v1.35".
			call, isCall := kv.Value.(*ast.CallExpr)
			if !isCall || len(call.Args) != 1 {
				return s, fmt.Errorf("a gate's Version is not version.MustParse(\"1.N\")")
			}
			lit, _ := call.Args[0].(*ast.BasicLit)
			if lit == nil {
				return s, fmt.Errorf("a gate's Version is not a string")
			}
			v, _ := strconv.Unquote(lit.Value)
			_, minor, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
			n, err := strconv.Atoi(minor)
			if err != nil {
				return s, fmt.Errorf("a gate's Version %q is not 1.N", v)
			}
			s.since = n
		}
	}
	return s, nil
}

// name is an identifier's name, or a qualified one's last part
// (featuregate.Beta is Beta, genericfeatures.WatchList is WatchList).
func name(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}
