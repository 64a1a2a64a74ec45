package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

const (
	clientGo  = "k8s.io/client-go"
	apiserver = "k8s.io/apiserver"
)

// A probe is one fact about a release that a row rests on.
type probe interface {
	// module is the module the probe reads.
	module() string
	// read looks at one release of the module, rooted at dir, which is
	// Kubernetes 1.minor: does the probe hold there, and what it saw, in a
	// word or two ("absent", "method", "beta, off").
	read(dir string, minor int) (holds bool, saw string, err error)
	// String is the probe as versions.md's last column writes it, the same
	// in both languages.
	String() string
}

// symbolProbe holds where the package declares one of the names.
type symbolProbe struct {
	pkg   string
	names []string
}

// symbol is a name declared in a client-go package directory: Name for a
// type, func, const or var, Type.Name for a method, a struct field or an
// interface method. More names are the same thing under the name a later
// release gives it (Type.ShutDownWithDrain is Typed.ShutDownWithDrain once
// the queue is generic), so that the probe keeps holding after a rename.
func symbol(pkg, name string, renamed ...string) probe {
	return symbolProbe{pkg, append([]string{name}, renamed...)}
}

func (p symbolProbe) module() string { return clientGo }
func (p symbolProbe) String() string { return p.pkg + ": " + strings.Join(p.names, " or ") }

func (p symbolProbe) read(dir string, _ int) (bool, string, error) {
	decls, err := declarationsIn(filepath.Join(dir, p.pkg))
	if err != nil {
		return false, "", err
	}
	for i, name := range p.names {
		if d, ok := decls[name]; ok {
			if i > 0 {
				return true, d.kind + " " + name, nil
			}
			return true, d.kind, nil
		}
	}
	return false, "absent", nil
}

// textProbe holds where a declaration's source (doc comment included) says
// the words, or, with lacks, where the declaration is there and no longer
// says them. A text probe is for a change of behaviour or of a documented
// contract, which no new name marks; rows.go says why its words prove it.
type textProbe struct {
	pkg, decl, words string
	lacks            bool
}

// has: the declaration's source or comment says the words.
func has(pkg, decl, words string) probe { return textProbe{pkg, decl, words, false} }

// lacks: the declaration is there and no longer says the words.
func lacks(pkg, decl, words string) probe { return textProbe{pkg, decl, words, true} }

func (p textProbe) module() string { return clientGo }

func (p textProbe) String() string {
	verb := "has"
	if p.lacks {
		verb = "lacks"
	}
	return fmt.Sprintf("%s: %s %s %q", p.pkg, p.decl, verb, p.words)
}

func (p textProbe) read(dir string, _ int) (bool, string, error) {
	decls, err := declarationsIn(filepath.Join(dir, p.pkg))
	if err != nil {
		return false, "", err
	}
	d, ok := decls[p.decl]
	switch {
	case !ok:
		// No declaration, no claim either way: a lacks probe must not
		// hold because the function is gone.
		return false, "no " + p.decl, nil
	case strings.Contains(d.text, p.words) == p.lacks:
		if p.lacks {
			return false, "says it", nil
		}
		return false, "does not say it", nil
	case p.lacks:
		return true, "no longer says it", nil
	}
	return true, "says it", nil
}

// gateProbe holds where the release lists the gate with the wanted stage and
// default.
type gateProbe struct {
	mod, file, gate, want string
}

// gate is a client-go feature gate, wanted as gateSpec.String writes it:
// "beta, on", "GA, on, locked".
func gate(name, want string) probe {
	return gateProbe{clientGo, "features/known_features.go", name, want}
}

// serverGate is a gate of the generic apiserver, which every kube-apiserver
// of that release is built with.
func serverGate(name, want string) probe {
	return gateProbe{apiserver, "pkg/features/kube_features.go", name, want}
}

func (p gateProbe) module() string { return p.mod }

func (p gateProbe) String() string {
	file := p.file
	if p.mod != clientGo {
		file = p.mod + "/" + p.file
	}
	return fmt.Sprintf("%s: %s %s", file, p.gate, p.want)
}

func (p gateProbe) read(dir string, minor int) (bool, string, error) {
	spec, ok, err := gateIn(filepath.Join(dir, p.file), p.gate, minor)
	if err != nil || !ok {
		return false, "absent", err
	}
	return spec.String() == p.want, spec.String(), nil
}

// declarationsIn parses a package directory once per run: many probes read
// tools/cache of the same release.
func declarationsIn(dir string) (map[string]declaration, error) {
	if d, ok := parsed[dir]; ok {
		return d, nil
	}
	d, err := packageDeclarations(dir)
	if err == nil {
		parsed[dir] = d
	}
	return d, err
}

var parsed = map[string]map[string]declaration{}
