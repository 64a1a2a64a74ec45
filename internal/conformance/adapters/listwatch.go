//go:build conformance

package listwatch
