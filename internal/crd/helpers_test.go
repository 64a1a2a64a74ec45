package crd_test

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

func unstructuredNestedInt64(obj map[string]any, fields ...string) (int64, bool, error) {
	return unstructured.NestedInt64(obj, fields...)
}

func unstructuredString(obj map[string]any, fields ...string) (string, bool, error) {
	return unstructured.NestedString(obj, fields...)
}
