package reqlog

import "strings"

// Verb says what a request asks of the apiserver, as a person counting
// requests would: a GET of a collection is "LIST", or "WATCH" when it asks
// to watch (watch=true; a WatchList stream is a WATCH with
// sendInitialEvents=true); a GET of one object, or of a path that names no
// resource (/version), is "GET"; any other method is its own name ("POST",
// "PATCH"…).
func (r Request) Verb() string {
	if r.Method != "GET" {
		return r.Method
	}
	if r.Query.Get("watch") == "true" || r.Query.Get("watch") == "1" {
		return "WATCH"
	}
	if resource, name := r.resourceAndName(); resource == "" || name != "" {
		return "GET"
	}
	return "LIST"
}

// Resource is the resource the request's path names ("pods",
// "deployments", "foos"), or "" for a path that names none (/version,
// /api, /apis/apps/v1).
func (r Request) Resource() string {
	resource, _ := r.resourceAndName()
	return resource
}

// resourceAndName splits a resource path: /api/v1/[namespaces/NS/]RESOURCE[/NAME…]
// or /apis/GROUP/VERSION/[namespaces/NS/]RESOURCE[/NAME…].
func (r Request) resourceAndName() (resource, name string) {
	segments := strings.Split(strings.Trim(r.Path, "/"), "/")
	var rest []string
	switch {
	case len(segments) >= 2 && segments[0] == "api":
		rest = segments[2:]
	case len(segments) >= 3 && segments[0] == "apis":
		rest = segments[3:]
	}
	if len(rest) >= 3 && rest[0] == "namespaces" {
		rest = rest[2:]
	}
	if len(rest) == 0 {
		return "", ""
	}
	if len(rest) > 1 {
		name = rest[1]
	}
	return rest[0], name
}
