// Not a mirror of client-go: the check of the demo's flags, run by the
// harness before it starts anything (demo.Options.CheckFlags).

package main

import (
	"errors"
	"fmt"

	informer "informer-from-scratch/06-sharedinformer"
)

// checkFlags refuses a flag value the script cannot use, or flags that
// would show nothing together, before the playground starts: on a first
// run that is minutes of building before the learner would hear of it.
// --break's name is checked as it is parsed (main.go).
func checkFlags(realCluster bool) error {
	if _, err := parseQueue(queueFlag); err != nil {
		return err
	}
	if chaosFlag && realCluster {
		return errors.New("--chaos needs the playground: it restarts the apiserver")
	}
	if breakFlag != "" && realCluster {
		return fmt.Errorf("--break=%s needs the playground: the steps that show it write, and on a real cluster the demo only reads", breakFlag)
	}
	if breakFlag == "blocking-listener" && chaosFlag {
		return errors.New("--break=blocking-listener shows in the last step, which --chaos skips")
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
	return 0, fmt.Errorf("--queue=%s: the queues are realfifo and deltafifo", name)
}
