package main

import (
	"path/filepath"
	"testing"
)

// The two forms a release lists its gates in, cut down from client-go's
// features/known_features.go (unversioned before 1.35) and the apiserver's
// pkg/features/kube_features.go (versioned since 1.32), with the map of a
// gate's dependencies first, which has the gate as a key and no spec.
const (
	unversionedGates = `package features

var defaultKubernetesFeatureGates = map[Feature]FeatureSpec{
	WatchListClient:         {Default: false, PreRelease: Beta},
	InformerResourceVersion: {Default: false, PreRelease: Alpha},
}
`
	versionedGates = `package features

var dependencies = map[featuregate.Feature][]featuregate.Feature{
	genericfeatures.WatchList: {},
}

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	genericfeatures.WatchList: {
		{Version: version.MustParse("1.27"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.32"), Default: true, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.33"), Default: false, PreRelease: featuregate.Beta},
		{Version: version.MustParse("v1.34"), Default: true, PreRelease: featuregate.Beta},
	},
	InOrderInformers: {
		{Version: version.MustParse("1.33"), Default: true, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.36"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
	},
}
`
)

func TestGateInReadsBothFormsAtTheRelease(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"old.go": unversionedGates, "new.go": versionedGates})
	old, versioned := filepath.Join(dir, "old.go"), filepath.Join(dir, "new.go")
	for _, tc := range []struct {
		file, gate string
		minor      int
		want       string // "" when the gate is not there
	}{
		{old, "WatchListClient", 30, "beta, off"},
		{old, "InformerResourceVersion", 34, "alpha, off"},
		{old, "InOrderInformers", 34, ""},
		// The spec in force is the last one not after the release.
		{versioned, "WatchList", 26, ""},
		{versioned, "WatchList", 27, "alpha, off"},
		{versioned, "WatchList", 31, "alpha, off"},
		{versioned, "WatchList", 32, "beta, on"},
		{versioned, "WatchList", 33, "beta, off"},
		{versioned, "WatchList", 34, "beta, on"}, // written "v1.34"
		{versioned, "WatchList", 37, "beta, on"},
		{versioned, "InOrderInformers", 35, "beta, on"},
		{versioned, "InOrderInformers", 36, "GA, on, locked"},
		{filepath.Join(dir, "missing.go"), "WatchList", 37, ""},
	} {
		spec, ok, err := gateIn(tc.file, tc.gate, tc.minor)
		got := ""
		if ok {
			got = spec.String()
		}
		if err != nil || got != tc.want {
			t.Errorf("%s in %s at 1.%d: %q (err %v), want %q", tc.gate, filepath.Base(tc.file), tc.minor, got, err, tc.want)
		}
	}
}
