// Command versions proves docs/{en,zh}/versions.md from the released
// modules: for each row of that table, what the row says changed is absent
// in the release before the one it names and present in the one it names.
//
// A Kubernetes release 1.N ships k8s.io/client-go v0.N.0 and k8s.io/apiserver
// v0.N.0, and the Go module proxy keeps every one of them, so "when did this
// come in" need not be inferred from pull-request dates and release
// schedules: it can be read. The command downloads the releases it needs
// once (go mod download, into the ordinary module cache), from the release
// before the earliest row to the release the repository teaches, and reads
// them without compiling anything. Each row rests on probes (rows.go, one
// entry per row of the table, in its order), of three kinds:
//
//   - a symbol: a type, function, constant, variable, method (Recv.Name),
//     interface method or struct field declared in a package directory,
//     found with go/parser (declarations.go);
//   - a feature gate: the gate's entry in the release's own list of gates,
//     and the stage and default it has in that release (gates.go);
//   - a text, for a change of behaviour or of a documented contract: words
//     that a declaration's source or doc comment has (or no longer has),
//     the declaration named as a symbol is, so that the text is looked for
//     where it proves something (rows.go says why each one does).
//
// A probe holds or not in each release. A row is proved when every one of
// its probes holds in v0.N.0 and not in v0.(N-1).0; where a probe changes
// more than once (a gate turned on, off and on again) the row names one of
// its changes. The command prints one line per row, the version claimed
// beside the versions found, and exits 1 when one disagrees.
//
// Patch releases are not read: a change backported to v0.(N-1).5 still came
// in 1.N as far as this table is concerned, which is what the chapters mean
// by "since 1.N".
//
// make test does not run this command (it downloads); it runs the test that
// keeps versions.md's rows in both languages equal to rows.go, which needs
// no network (docs_test.go).
package main
