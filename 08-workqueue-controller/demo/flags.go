// Not a mirror of client-go: the check of the demo's flags, run by the
// harness before it starts anything (demo.Options.CheckFlags).

package main

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
)

// checkFlags refuses a flag value the script cannot use, or flags that
// would show nothing together, before the playground starts or the real
// cluster is asked anything: on a first run the playground is minutes of
// building before the learner would hear of it. --break's name is checked
// as it is parsed (breakFlagValue).
func checkFlags(realCluster bool) error {
	if workersFlag < 1 {
		return fmt.Errorf("--workers=%d: the controller needs at least one worker", workersFlag)
	}
	if failFlag < 0 || failFlag > maxFail {
		return fmt.Errorf("--fail=%d: give a number of failures from 0 to %d (the %dth retry already waits %v)", failFlag, maxFail, maxFail, 5*time.Millisecond<<(maxFail-1))
	}
	if breakFlag == "owner-reference" && failFlag == 0 {
		return fmt.Errorf("--break=owner-reference shows in steps 7 and 8, which --fail=0 skips")
	}
	if realCluster {
		if errs := validation.IsDNS1123Label(namespaceFlag); len(errs) > 0 {
			return fmt.Errorf("--namespace=%q: the demo needs a namespace of its own, named as Kubernetes names one: %s", namespaceFlag, strings.Join(errs, "; "))
		}
	} else {
		// On the playground these would be ignored: say so rather than
		// let the learner look for their effect.
		if namespaceFlag != defaultRealNamespace {
			return fmt.Errorf("--namespace=%s is for a real cluster (--kubeconfig): on the playground the demo writes in namespace %s", namespaceFlag, playgroundNamespace)
		}
		if cleanupFlag {
			return fmt.Errorf("--cleanup is for a real cluster (--kubeconfig): the playground is removed whole when the demo ends")
		}
	}
	return webOpts.Check()
}
