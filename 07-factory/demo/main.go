// Command demo is stage 07's demo: one program, two parts (an
// "autoscaler" and a "dashboard"), each asking one SharedInformerFactory for
// the informers it needs. The request log shows one WATCH per type however
// many parts asked; the same program built without a factory shows the
// cost. A Deployments lister answers a label query from the cache with no
// request at all, and sample-controller's Foo, a CustomResource registered
// on the playground, arrives through the dynamic factory's ForResource.
// Then Shutdown. Run it with `make run-stage 7`.
//
// On a real cluster it only reads, whatever the flags: it skips the scene,
// and lists deployments through ForResource instead of Foos.
package main

import (
	"informer-from-scratch/internal/demo"
)

var options = demo.Options{
	Stage: 7,
	Title: sayTitle,
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	s, err := newScript(env)
	if err != nil {
		return err
	}
	defer s.stop()
	for _, step := range []func() error{
		s.setScene,
		s.sharedFactory,
		s.withoutFactory,
		s.listerFromCache,
		s.customResource,
		s.shutdown,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
