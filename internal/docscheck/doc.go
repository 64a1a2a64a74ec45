// Package docscheck holds the tests that keep the docs honest; it has no code
// of its own. They run in `make test`:
//
//   - docs/en and docs/zh hold the same files, each pair with the same
//     headings (count and levels, in order) and the same fenced code blocks
//     (byte for byte: code and mermaid diagrams are shared by both languages);
//   - every relative link in a chapter or README points at a file that exists,
//     and a link's #fragment names a heading of the file it points at, as
//     GitHub makes anchors from headings (the glossary depends on it);
//   - every client-go file a chapter or a stage's source file cites (written
//     as `tools/cache/reflector.go`, `informers/factory.go` or
//     `dynamic/dynamicinformer/informer.go`) exists in k8s.io/client-go
//     v0.37.2, and every client-go identifier a chapter cites (written as
//     `cache.NewReflectorWithOptions`, `pager.ListPager.List`,
//     `cache.processorListener.pop`, `informers.sharedInformerFactory.Start`
//     or `dynamicinformer.NewDynamicSharedInformerFactory(client, 0)`) is
//     declared there: a function, type,
//     variable, constant, method or field (cite a method on the type or
//     interface that declares it, not on one that embeds it). The same holds
//     for the apimachinery and k8s.io/utils packages informers are built on,
//     cited as `wait.UntilWithContext`, `utilruntime.HandleCrash`,
//     `buffer.RingGrowing`, `meta.`, `sets.` or `labels.` (see packageDirs);
//   - every name a stage file's header lists after the client-go file it
//     mirrors ("Mirrors k8s.io/client-go v0.37.2 tools/cache/store.go:
//     Store, NewStore") is declared in that file's package (mirrors.go);
//   - the overview and the glossary define the tag that opens a paragraph
//     about this repository only, not client-go (**Ours:**, **本仓库独有：**);
//     every paragraph or list item of a stage's chapter that names a thing
//     client-go does not have (a teaching switch, a seam, a view for the
//     demo…) carries it, outside the differences and the lab; and each page
//     has as many tags in Chinese as in English (ours_test.go);
//   - every English stage chapter stays within a budget of words
//     (budget_test.go), the proof living in docs/{en,zh}/proof/;
//   - every version claim of a chapter or README ("since 1.35", "1.36 起")
//     is a link to its row of versions.md, whose version it names
//     (versions_test.go); the rows themselves are proved from the released
//     modules by make versions, and proving-ground/versions's own test
//     keeps versions.md equal to its list of probes;
//   - the playground's kube-apiserver version, as the docs state it, is the
//     one playground/go.mod builds (playgroundversions_test.go);
//   - the performance chapter's tables are the ones docs/bench/scale.md
//     holds, row for row, in both languages (benchtables_test.go): the
//     report is the one copy, and make bench-scale rewrites the chapter's.
package docscheck
