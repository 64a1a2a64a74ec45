//go:build conformance

package pager
