// Not a mirror of client-go: the demo's two index functions (IndexFunc of
// tools/cache/index.go), one single-valued and one multi-valued.

package main

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// The two indexes the demo adds to the filled cache.
const (
	byNode  = "byNode"
	byLabel = "byLabel"
)

// nodeIndexFunc files a pod under the node it is bound to ("" for none).
func nodeIndexFunc(obj interface{}) ([]string, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("byNode indexes pods, got a %T", obj)
	}
	return []string{pod.Spec.NodeName}, nil
}

// labelIndexFunc files a pod under every one of its labels, as "key=value":
// a multi-valued index, so "pods with app=web" becomes one lookup.
func labelIndexFunc(obj interface{}) ([]string, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("byLabel indexes pods, got a %T", obj)
	}
	values := make([]string, 0, len(pod.Labels))
	for k, v := range pod.Labels {
		values = append(values, k+"="+v)
	}
	slices.Sort(values)
	return values, nil
}
