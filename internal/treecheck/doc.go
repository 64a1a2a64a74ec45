// Package treecheck holds tests of the repository's tree as a whole, not of
// any one package: which files each supported system compiles (portability),
// which packages may import which, how big each stage says it is, and that
// git tracks no built program (binaries_test.go).
package treecheck
