package clientgostack_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/proving-ground/clientgostack"
)

// TestTombstonesHandOursOn: a delete client-go delivers as its
// DeletedFinalStateUnknown reaches the controller's handler as ours, with
// the same key and object; any other delete passes as it came.
func TestTombstonesHandOursOn(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-1", ResourceVersion: "7"}}
	for _, tc := range []struct {
		name      string
		delivered any
		want      any
	}{
		{"tombstone", cache.DeletedFinalStateUnknown{Key: "ns/web-1", Obj: pod}, informer.DeletedFinalStateUnknown{Key: "ns/web-1", Obj: pod}},
		{"object", pod, pod},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []any
			h := clientgostack.Tombstones{ResourceEventHandler: informer.ResourceEventHandlerFuncs{
				DeleteFunc: func(obj any) { got = append(got, obj) },
			}}
			h.OnDelete(tc.delivered)
			if diff := cmp.Diff([]any{tc.want}, got); diff != "" {
				t.Errorf("the handler behind Tombstones got (-want +got):\n%s", diff)
			}
		})
	}
}
