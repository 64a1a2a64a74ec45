package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameThePlaygroundsVersions: the READMEs, the overview and the
// version timeline, in both languages, say which kube-apiserver and etcd the
// playground runs, and those are the versions playground/go.mod builds.
func TestDocsNameThePlaygroundsVersions(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "playground/go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	required := func(module string) string {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(module) + `\s+(v\S+)`).FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("playground/go.mod requires no %s", module)
		}
		return m[1]
	}
	want := []string{
		"kube-apiserver " + required("k8s.io/kubernetes"),
		"etcd " + required("go.etcd.io/etcd/server/v3"),
	}
	for _, f := range []string{"README.md", "README.zh-CN.md", "docs/en/00-overview.md", "docs/zh/00-overview.md", "docs/en/versions.md", "docs/zh/versions.md"} {
		doc, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(strings.ReplaceAll(string(doc), "**", ""), "\n", " ")
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say the playground runs %s (playground/go.mod builds it)", f, w)
			}
		}
	}
}
