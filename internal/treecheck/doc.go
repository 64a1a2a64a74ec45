// Package treecheck holds tests of the repository's tree as a whole, not of
// any one package: which files each supported system compiles (portability),
// and which packages may import which.
package treecheck
