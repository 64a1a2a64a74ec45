package indexer_test

// The differential harness, part 1: the objects and the index functions both
// sides are given. ops_test.go describes the operations, generate_test.go
// makes random ones, snapshot_test.go compares what each side answers.

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// notAnObject has no metadata: key functions and MetaNamespaceIndexFunc
// must refuse it.
type notAnObject struct{ Name string }

// namedIndexFunc is one index function in both worlds. Most are the same
// function; the namespace index is each side's own MetaNamespaceIndexFunc.
type namedIndexFunc struct {
	name   string
	ours   indexer.IndexFunc
	theirs cache.IndexFunc
}

func same(name string, f func(obj interface{}) ([]string, error)) namedIndexFunc {
	return namedIndexFunc{name: name, ours: f, theirs: f}
}

func asPod(obj interface{}) (*corev1.Pod, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("not a pod: %T", obj)
	}
	return pod, nil
}

// The index functions the differential tests install: single-valued,
// zero-valued (no app label), multi-valued with duplicates (users), and one
// that fails on poisoned pods.
var (
	namespaceIndex = namedIndexFunc{name: indexer.NamespaceIndex, ours: indexer.MetaNamespaceIndexFunc, theirs: cache.MetaNamespaceIndexFunc}
	byNode         = same("byNode", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		return []string{pod.Spec.NodeName}, nil
	})
	byApp = same("byApp", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		if app, ok := pod.Labels["app"]; ok {
			return []string{app}, nil
		}
		return nil, nil
	})
	byUser = same("byUser", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		return strings.Split(pod.Annotations["users"], ","), nil
	})
	byPoison = same("byPoison", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		if pod.Labels["poison"] == "true" {
			return nil, errors.New("poisoned pod")
		}
		return []string{"clean"}, nil
	})
	// Added later by AddIndexers.
	byTier = same("byTier", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		return []string{pod.Labels["tier"]}, nil
	})
	byLabel = same("byLabel", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		var pairs []string
		for k, v := range pod.Labels {
			pairs = append(pairs, k+"="+v)
		}
		return pairs, nil
	})
	byNodeStrict = same("byNodeStrict", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		if pod.Spec.NodeName == "" {
			return nil, errors.New("pod is not on a node")
		}
		return []string{pod.Spec.NodeName}, nil
	})

	initialIndexFuncs = []namedIndexFunc{namespaceIndex, byNode, byApp, byUser, byPoison}
	// laterIndexFuncs are what AddIndexers picks from; byNode and the
	// namespace index conflict with the initial ones.
	laterIndexFuncs = []namedIndexFunc{byTier, byLabel, byNodeStrict, byNode, namespaceIndex}
)

func oursIndexers(fs ...namedIndexFunc) indexer.Indexers {
	out := indexer.Indexers{}
	for _, f := range fs {
		out[f.name] = f.ours
	}
	return out
}

func theirsIndexers(fs ...namedIndexFunc) cache.Indexers {
	out := cache.Indexers{}
	for _, f := range fs {
		out[f.name] = f.theirs
	}
	return out
}

func newOurs(fs ...namedIndexFunc) indexer.Indexer {
	return indexer.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, oursIndexers(fs...))
}

func newTheirs(fs ...namedIndexFunc) cache.Indexer {
	return cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, theirsIndexers(fs...))
}
