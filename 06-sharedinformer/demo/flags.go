// Not a mirror of client-go: the check of the demo's flags, run by the
// harness before it starts anything (demo.Options.CheckFlags).

package main

import (
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/lang"
)

// checkFlags refuses a flag value the script cannot use, or flags that
// would show nothing together, before the playground starts: on a first
// run that is minutes of building before the learner would hear of it.
// Its errors are said in the learner's language (lang.Errorf).
func checkFlags(realCluster bool) error {
	if _, err := parseQueue(queueFlag); err != nil {
		return err
	}
	if _, err := informer.ParseBreak(breakFlag); err != nil {
		return lang.Errorf(sayNoBreak, breakFlag) // --break=help is answered before Main
	}
	if chaosFlag && realCluster {
		return lang.Errorf(sayChaosNeedsPlayground)
	}
	if breakFlag != "" && realCluster {
		return lang.Errorf(sayBreakNeedsPlayground, breakFlag)
	}
	if breakFlag == "blocking-listener" && chaosFlag {
		return lang.Errorf(sayBlockingWithChaos)
	}
	return webOpts.Check()
}

// parseQueue is --queue's value as the informer's option.
func parseQueue(name string) (informer.QueueKind, error) {
	switch name {
	case "realfifo":
		return informer.QueueRealFIFO, nil
	case "deltafifo":
		return informer.QueueDeltaFIFO, nil
	}
	return 0, lang.Errorf(sayBadQueue, name)
}
