// Package pager breaks one big LIST into pages, the way client-go v0.37.2's
// tools/pager/pager.go does: ListPager, New, SimplePageFunc, List,
// ListWithAlloc, EachListItem and EachListItemWithAlloc.
//
// A LIST of 50,000 pods as one response costs the apiserver one huge
// allocation and the client one huge decode. With limit=500 the server returns
// 500 items and a continue token; the next request carries the token and gets
// the next 500, all from the same consistent snapshot (the token pins the
// resourceVersion of the first page). If the snapshot is compacted away in
// etcd before the last page, the server answers 410 Gone with reason Expired;
// the pager then falls back to one full, unpaginated LIST.
//
// Size: about 171 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 182 in client-go
// v0.37.2's tools/pager/pager.go.
//
// Read pager.go, then each.go. The functions marked //lab:01 are lab 01's:
// make lab-start 1 turns them into stubs that state their contract
// (docs/en/labs/01-listwatch.md).
package pager
