// Not a mirror of client-go: the check of the demo's flags, run by the
// harness before it starts anything (demo.Options.CheckFlags).

package main

import (
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"

	"informer-from-scratch/internal/lang"
)

// checkFlags refuses a flag value the script cannot use, or flags that
// would show nothing together, before the playground starts or the real
// cluster is asked anything: on a first run the playground is minutes of
// building before the learner would hear of it. Its errors are said in
// the learner's language (lang.Errorf).
func checkFlags(realCluster bool) error {
	if workersFlag < 1 {
		return lang.Errorf(sayBadWorkers, workersFlag)
	}
	if failFlag < 0 || failFlag > maxFail {
		return lang.Errorf(sayBadFail, failFlag, maxFail, maxFail, 5*time.Millisecond<<(maxFail-1))
	}
	if _, err := parseBreak(breakFlag); err != nil {
		return err // --break=help is answered before Main
	}
	if breakFlag == "owner-reference" && failFlag == 0 {
		return lang.Errorf(sayOwnerRefNeedsFail)
	}
	if realCluster {
		if errs := validation.IsDNS1123Label(namespaceFlag); len(errs) > 0 {
			return lang.Errorf(sayBadNamespace, namespaceFlag, strings.Join(errs, "; "))
		}
	} else {
		// On the playground these would be ignored: say so rather than
		// let the learner look for their effect.
		if namespaceFlag != defaultRealNamespace {
			return lang.Errorf(sayNamespaceOnPlayground, namespaceFlag, playgroundNamespace)
		}
		if cleanupFlag {
			return lang.Errorf(sayCleanupOnPlayground)
		}
	}
	return webOpts.Check()
}
