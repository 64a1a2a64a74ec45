package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"informer-from-scratch/internal/testenv"
)

// TestMain: the playground is started by the first test that needs it and
// stopped here; a goroutine left behind fails the package.
func TestMain(m *testing.M) { testenv.Main(m, testenv.Options{}) }

// TestRunReconcilesOnThePlayground runs the program's Run against a real
// apiserver: the ConfigMaps that exist before it starts (the initial list),
// one created while it runs (a watch event), one whose data changes (an
// update) and one deleted; and one outside its label selector, which it
// must leave alone. Then it cancels the context and expects Run to return
// nil, promptly, with no goroutine left behind.
func TestRunReconcilesOnThePlayground(t *testing.T) {
	cfg := testenv.Cluster(t).RESTConfig()
	client := kubernetes.NewForConfigOrDie(cfg)
	ctx := t.Context()
	ns := "example-clientgo"
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	create := func(name string, selected bool, data map[string]string) {
		t.Helper()
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: data}
		if selected {
			cm.Labels = map[string]string{"example.com/summarize": "true"}
		}
		if _, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	create("alpha", true, map[string]string{"b": "1", "a": "2"})
	create("beta", true, nil)
	create("outside", false, map[string]string{"x": "1"})

	before := testenv.GoroutinesBefore()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- Run(runCtx, cfg, 2) }()

	waitForKeys(t, client, ns, "alpha", "a,b")
	waitForKeys(t, client, ns, "beta", "")

	create("gamma", true, map[string]string{"k": "v"})
	waitForKeys(t, client, ns, "gamma", "k")

	alpha, err := client.CoreV1().ConfigMaps(ns).Get(ctx, "alpha", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	alpha.Data["c"] = "3"
	if _, err := client.CoreV1().ConfigMaps(ns).Update(ctx, alpha, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForKeys(t, client, ns, "alpha", "a,b,c")

	if err := client.CoreV1().ConfigMaps(ns).Delete(ctx, "beta", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// A key the controller reconciles after beta's deletion: once it is
	// done, so is beta's (one queue), and nothing failed on the way.
	create("delta", true, map[string]string{"z": "1"})
	waitForKeys(t, client, ns, "delta", "z")

	outside, err := client.CoreV1().ConfigMaps(ns).Get(ctx, "outside", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := outside.Annotations[KeysAnnotation]; ok {
		t.Errorf("the ConfigMap outside the selector got %s=%q; the controller must not see it", KeysAnnotation, v)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run returned %v after its context ended, want nil", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return within 30s of its context ending")
	}
	testenv.NoLeakAfterShutdown(t, "Run", before)
}

// waitForKeys waits until the ConfigMap's annotation says want.
func waitForKeys(t *testing.T, client kubernetes.Interface, ns, name, want string) {
	t.Helper()
	var got string
	var found bool
	err := wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		got, found = cm.Annotations[KeysAnnotation]
		return found && got == want, nil
	})
	if err != nil {
		t.Fatalf("%s/%s: annotation %s is %q (present: %v), want %q: %v", ns, name, KeysAnnotation, got, found, want, err)
	}
}

// TestDropManagedFieldsIsIdempotent: the transform empties managedFields,
// gives the same object a second time (a WatchList's objects pass through
// it twice), and hands back what is not an object unchanged.
func TestDropManagedFieldsIsIdempotent(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name: "a", Namespace: "ns", ResourceVersion: "7",
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate}},
	}}
	want := cm.DeepCopy()
	want.ManagedFields = nil

	once, err := dropManagedFields(cm)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, once); diff != "" {
		t.Errorf("after one transform (-want +got):\n%s", diff)
	}
	twice, err := dropManagedFields(once)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(once, twice); diff != "" {
		t.Errorf("a second transform changed the object (-once +twice):\n%s", diff)
	}

	tombstone := cache.DeletedFinalStateUnknown{Key: "ns/a", Obj: want}
	got, err := dropManagedFields(tombstone)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tombstone, got); diff != "" {
		t.Errorf("a tombstone was changed (-want +got):\n%s", diff)
	}
}

// TestThePageShowsThisFile keeps docs/{en,zh}/to-client-go.md and main.go
// identical: the page's go blocks, in order, joined by one blank line, are
// the whole file. Change one, change the other.
func TestThePageShowsThisFile(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		page := filepath.Join("..", "..", "docs", lang, "to-client-go.md")
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		blocks := goBlocks(string(b))
		if len(blocks) < 2 {
			t.Errorf("%s: found %d go blocks; the page shows main.go in several", page, len(blocks))
			continue
		}
		if diff := cmp.Diff(string(src), strings.Join(blocks, "\n")); diff != "" {
			t.Errorf("%s and examples/clientgo/main.go differ (-main.go +page):\n%s", page, diff)
		}
	}
}

// goBlocks returns the content of each ```go fenced block of a markdown
// text, each line ending with a newline.
func goBlocks(markdown string) []string {
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.Split(markdown, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```go":
			cur = &strings.Builder{}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
			cur.WriteByte('\n')
		}
	}
	return blocks
}

// TestGoBlocksFindsEveryBlock pins the reader the page check depends on.
func TestGoBlocksFindsEveryBlock(t *testing.T) {
	md := "text\n```go\na\n\nb\n```\n```text\nnot go\n```\n```go\nc\n```\n"
	if diff := cmp.Diff([]string{"a\n\nb\n", "c\n"}, goBlocks(md)); diff != "" {
		t.Errorf("goBlocks (-want +got):\n%s", diff)
	}
}
