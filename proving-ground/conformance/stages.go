package main

import "slices"

// stages.go is the table of which client-go test files run against which of
// our packages. Adding a stage is one entry here and one adapter file in
// adapters/; a stage whose directory does not exist yet is reported as
// pending, with the tests waiting for it.

// stage is one of our packages and the client-go files run against it.
type stage struct {
	// dir is our package, relative to the repository root.
	dir string
	// pkg is its package name: the name every copied file is given.
	pkg string
	// adapter is this repository's file under proving-ground/conformance/adapters
	// that maps client-go's names onto ours for this package.
	adapter string
	// tests are the client-go files (paths inside the client-go module)
	// whose tests run here; each is a row of the table.
	tests []string
	// support are client-go files read only for the helpers the tests
	// above use; their own tests run elsewhere or not at all.
	support []string
	// internals are adapter files that go into a lower stage's package as
	// ordinary (non-test) files, keyed by that package's directory: accessors
	// for internals the tests read from a type that client-go keeps in the
	// tests' own package and we keep in a lower stage. Such a file is part of
	// that package for the whole run, so its names must not clash with
	// client-go's test helpers there (ours start with Conformance).
	internals map[string]string
	// replaces are client-go test helpers (top-level declarations of the
	// files above, never a test) that the adapter declares instead, because
	// what they read is out of the tests' reach here: client-go's
	// eventHandlerCount counts the processor's listeners, a field of a type
	// that is stage 05's and unexported there. The helper's declaration is
	// removed; every use of it stays, and calls the adapter's.
	replaces []string
	// renames are functions the tests call by a name our package declares
	// with another signature: client-go's processDeltas takes a klog.Logger
	// first, ours (which does not log) does not. Each call name(…) becomes a
	// call to the adapter's function named by the value, which takes
	// client-go's arguments and calls ours. Only calls are renamed.
	renames map[string]string
	// types are types the tests name by a name our package gives a type
	// without the fields they fill in: client-go's TestUpdate builds a
	// ListWatch with the deprecated context-less ListFunc and WatchFunc,
	// which stage 01's ListWatch (stage 06's by alias) leaves out. Every
	// identifier naming the type in the files names the adapter's type
	// instead (the value): a ListWatch with those fields, over stage 01's.
	// Field names, names after a dot and declarations are left alone.
	types map[string]string
	// sides are expressions the tests assign to or from that reach into
	// internals of a type that is another package's here: client-go's
	// TestResyncCheckPeriod sets informer.processor.clock, a field of stage
	// 05's processor, which Go keeps out of package informer's reach. Each
	// key is the expression as client-go writes it; where it is a whole
	// side of an assignment that is a statement of its own, it becomes the
	// adapter's expression (the value), which reaches the same field
	// through an accessor. Only there: the same text in a condition, a
	// call's argument or any larger expression is left alone, so a test's
	// checks are never rewritten. The report lists every line changed.
	sides map[string]string
	// imports are client-go packages that the stage's external test files
	// (package x_test) import beside the one under test, and whose names
	// the adapter declares: client-go's dynamic informer tests build their
	// handlers and wait for the caches with tools/cache, which is stages
	// 04-06 here. Each import of one is pointed at our package under test,
	// under the name the file gives it, so cache.WaitForCacheSync is the
	// adapter's alias of ours.
	imports []string
	// only, when set, are the tests this stage runs of its files; the
	// others are another stage's. A file whose tests are split between two
	// stages is in both (client-go's wait_test.go tests WaitFor, stage 06's,
	// and SyncResult, which stage 07 declares). An exclusion of one of these
	// tests is the other stage's: it says why that stage does not run it.
	only []string
}

// runsHere reports whether test t of the stage's files is this stage's.
func (s stage) runsHere(t string) bool { return len(s.only) == 0 || slices.Contains(s.only, t) }

// excluded is why test t of file does not run in this stage, or nil. A
// stage with only runs what it names whatever exclusions.txt says of the
// file: those lines are about the stage that runs the rest.
func (s stage) excluded(ex *exclusions, file, t string) *exclusion {
	if len(s.only) > 0 {
		return nil
	}
	return ex.excluded(file, t)
}

// target is the package the stage's client-go files become part of.
func (s stage) target() target {
	return target{pkg: s.pkg, importPath: modulePath + s.dir, replaces: s.replaces, renames: s.renames,
		types: s.types, sides: s.sides, imports: s.imports}
}

// clientGoTestDirs are the client-go directories whose test files the runner
// accounts for: each *_test.go in them must be a stage's test file, or be
// excluded as a whole in exclusions.txt. A directory ending in /... stands
// for every directory under it too (the generated informers and listers:
// client-go v0.37.2 has one test file in all of them).
var clientGoTestDirs = []string{
	"tools/cache",
	"tools/cache/synctrack",
	"tools/cache/testing",
	"tools/pager",
	"informers/...",
	"listers/...",
	"dynamic/dynamicinformer",
	"dynamic/dynamiclister",
	"util/workqueue",
}

// cacheSupport is what every tools/cache package of client-go's compiles
// with: goleak in TestMain, and klog's flags registered in init.
var cacheSupport = []string{
	"tools/cache/main_test.go",
	"tools/cache/cache_test.go",
}

var stages = []stage{
	{
		dir:     "01-listwatch",
		pkg:     "listwatch",
		adapter: "listwatch.go",
		tests:   []string{"tools/cache/listwatch_test.go"},
		support: cacheSupport,
	},
	{
		dir:     "01-listwatch/pager",
		pkg:     "pager",
		adapter: "pager.go",
		tests:   []string{"tools/pager/pager_test.go"},
	},
	{
		dir:     "02-reflector",
		pkg:     "reflector",
		adapter: "reflector.go",
		internals: map[string]string{
			"01-listwatch": "listwatch_deprecated.go", // ListWatch's ListFunc and WatchFunc
			"03-deltafifo": "reflector_deltafifo.go",  // the queues' items, for TestReflectorRespectStoreTransformer
		},
		tests: []string{
			"tools/cache/reflector_test.go",
			"tools/cache/reflector_watchlist_test.go",
			"tools/cache/retry_with_deadline_test.go",
		},
		support: append([]string{
			"tools/cache/util_test.go",
			"tools/cache/fifo_test.go",         // Pop, and FIFO's List
			"tools/cache/controller_test.go",   // toListWatcherWithUnSupportedWatchListSemantics
			"tools/cache/fake_custom_store.go", // FakeCustomStore (client-go ships it as a test fake)
			// FIFO, where seven tests collect what the reflector stored:
			// a fixture here, as the plain FIFO is left out of stage 03
			// (the adapter, reflector.go, says why).
			"tools/cache/fifo.go",
		}, cacheSupport...),
	},
	{
		dir:     "03-deltafifo",
		pkg:     "deltafifo",
		adapter: "deltafifo.go",
		tests: []string{
			"tools/cache/fifo_test.go",
			"tools/cache/delta_fifo_test.go",
			"tools/cache/the_real_fifo_test.go",
			"tools/cache/object-names_test.go",
		},
		support: cacheSupport,
	},
	{
		dir:     "04-indexer",
		pkg:     "indexer",
		adapter: "indexer.go",
		tests: []string{
			"tools/cache/store_test.go",
			"tools/cache/thread_safe_store_test.go",
			"tools/cache/index_test.go",
			"tools/cache/listers_test.go",
		},
		support: cacheSupport,
	},
	{
		dir:     "05-processor",
		pkg:     "processor",
		adapter: "processor.go",
		// It builds synctrack's AsyncTracker, which stage 05 leaves out,
		// for TestBasicLogic's Async case (excluded); its SingleFile case
		// runs, and needs the file to compile.
		replaces: []string{"testAsyncFuncs"},
		tests: []string{
			"tools/cache/processor_listener_test.go",
			"tools/cache/event_handler_name_test.go",
			"tools/cache/synctrack/synctrack_test.go",
		},
		support: cacheSupport,
	},
	{
		dir:     "06-sharedinformer",
		pkg:     "informer",
		adapter: "informer.go",
		internals: map[string]string{
			"01-listwatch": "listwatch_deprecated.go", // ListWatch's ListFunc and WatchFunc, for TestUpdate
			"03-deltafifo": "informer_deltafifo.go",   // RealFIFO.keyOf, for Example
			"04-indexer":   "informer_indexer.go",     // typedIndexer, for TestTypedIndexer
			"05-processor": "informer_processor.go",   // the processor's listeners, clock and resync periods
		},
		// They read the processor's listeners, which are stage 05's here.
		replaces: []string{"eventHandlerCount", "isRegistered"},
		// client-go's take a klog.Logger first; ours do not log.
		renames: map[string]string{
			"processDeltas":        "processDeltasWithLogger",
			"processDeltasInBatch": "processDeltasInBatchWithLogger",
		},
		// TestUpdate fills in ListWatch's deprecated ListFunc and WatchFunc.
		types: map[string]string{"ListWatch": "listWatchWithDeprecatedFuncs"},
		// TestResyncCheckPeriod and TestSharedInformerWatchDisruption set
		// the processor's clock, and the first reads its listeners' resync
		// periods: stage 05's fields here.
		sides: map[string]string{
			"informer.processor.clock":       "*processorClock(informer)",
			"informer.processor.getListener": "processorGetListener(informer)",
		},
		tests: []string{
			"tools/cache/shared_informer_test.go",
			"tools/cache/controller_test.go",
			"tools/cache/wait_test.go",
			"tools/cache/controller_bench_test.go",
			"tools/cache/shared_informer_bench_test.go",
			// It tests three layers: the typed indexer (stage 04), the typed
			// handlers (05) and the typed informer (06). It runs here, the
			// one package that sees all three.
			"tools/cache/typed_test.go",
		},
		support: append([]string{
			"tools/cache/util_test.go", // newFakeControllerSource, threadSafeBuffer
		}, cacheSupport...),
	},

	// Waiting: these stages run once their directory exists and their entry
	// names an adapter. Which tests each one cannot run is for its author
	// to say in exclusions.txt; an external test package (package
	// workqueue_test) has its import of client-go's package pointed at ours.
	{
		dir:     "07-factory",
		pkg:     "factory",
		adapter: "factory.go",
		// SyncResult is client-go's tools/cache's, and stage 07's here;
		// the rest of wait_test.go is stage 06's.
		tests:   []string{"tools/cache/wait_test.go"},
		only:    []string{"TestSyncResult"},
		support: cacheSupport,
	},
	{
		dir:     "07-factory/dynamicinformer",
		pkg:     "dynamicinformer",
		adapter: "dynamicinformer.go",
		// Its handlers and its wait are tools/cache's: stages 05 and 06.
		imports: []string{"k8s.io/client-go/tools/cache"},
		tests:   []string{"dynamic/dynamicinformer/informer_test.go"},
	},
	{
		dir:     "07-factory/dynamiclister",
		pkg:     "dynamiclister",
		adapter: "dynamiclister.go",
		// Its indexer is tools/cache's: stages 03 and 04.
		imports: []string{"k8s.io/client-go/tools/cache"},
		tests:   []string{"dynamic/dynamiclister/lister_test.go"},
	},
	{
		dir:     "08-workqueue-controller/workqueue",
		pkg:     "workqueue",
		adapter: "workqueue.go",
		tests: []string{
			"util/workqueue/queue_test.go",
			"util/workqueue/delaying_queue_test.go",
			"util/workqueue/rate_limiting_queue_test.go",
			"util/workqueue/default_rate_limiters_test.go",
			"util/workqueue/metrics_test.go",
			"util/workqueue/parallelizer_test.go",
		},
	},
}
