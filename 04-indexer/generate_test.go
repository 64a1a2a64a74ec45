package indexer_test

// Random operations, from a seeded PRNG or from the fuzzer's bytes.

import (
	"math/rand/v2"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// chooser is where the randomness comes from: a seeded PRNG in make test,
// the fuzzer's bytes under go test -fuzz.
type chooser interface {
	intn(n int) int
	exhausted() bool
}

type randChooser struct{ r *rand.Rand }

func (c randChooser) intn(n int) int  { return c.r.IntN(n) }
func (c randChooser) exhausted() bool { return false }

type byteChooser struct {
	data []byte
	done bool
}

func (c *byteChooser) intn(n int) int {
	if len(c.data) == 0 {
		c.done = true
		return 0
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b) % n
}

func (c *byteChooser) exhausted() bool { return c.done }

func pick[T any](c chooser, from ...T) T { return from[c.intn(len(from))] }

var (
	namespaces = []string{"ns-a", "ns-b", ""} // "" keys by name alone
	podNames   = []string{"p0", "p1", "p2", "p3", "p4"}
	nodes      = []string{"", "node-1", "node-2", "node-3"}
	users      = []string{"", "ann", "ann,bob", "bob,bob", "cy,ann,dee"}
)

// generator makes operations; rv is a resourceVersion that only grows.
type generator struct {
	c  chooser
	rv int
}

func (g *generator) nextRV() string {
	g.rv++
	return strconv.Itoa(g.rv)
}

// pod makes a random pod from a small universe of keys, so operations
// collide. poisonable pods are poisoned one time in twelve.
func (g *generator) pod(poisonable bool) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:       pick(g.c, namespaces...),
		Name:            pick(g.c, podNames...),
		ResourceVersion: g.nextRV(),
		Labels:          map[string]string{},
	}}
	if app := pick(g.c, "", "web", "db"); app != "" {
		pod.Labels["app"] = app
	}
	if tier := pick(g.c, "", "front", "back"); tier != "" {
		pod.Labels["tier"] = tier
	}
	if u := pick(g.c, users...); u != "" {
		pod.Annotations = map[string]string{"users": u}
	}
	pod.Spec.NodeName = pick(g.c, nodes...)
	if poisonable && g.c.intn(12) == 0 {
		pod.Labels["poison"] = "true"
		// On a node, so that only byPoison fails: the failure is then the
		// same whichever order each side runs its index functions in.
		pod.Spec.NodeName = "node-1"
	}
	return pod
}

func (g *generator) key() string {
	ns, name := pick(g.c, namespaces...), pick(g.c, podNames...)
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func (g *generator) op() op {
	switch g.c.intn(16) {
	case 0, 1, 2, 3:
		return op{kind: opAdd, obj: g.pod(true)}
	case 4, 5, 6:
		return op{kind: opUpdate, obj: g.pod(true)}
	case 7, 8:
		return op{kind: opDelete, obj: g.pod(false)}
	case 9:
		return op{kind: opDeleteKey, key: g.key()}
	case 10:
		return op{kind: opDeleteTombstone, key: g.key(), obj: g.pod(false)}
	case 11:
		// An object without metadata: a KeyError on both sides.
		return op{kind: pick(g.c, opAdd, opUpdate, opDelete), obj: notAnObject{Name: "x"}}
	case 12:
		o := op{kind: opReplace}
		for range g.c.intn(8) {
			if g.c.intn(20) == 0 {
				o.list = append(o.list, notAnObject{Name: "in-a-list"})
				continue
			}
			o.list = append(o.list, g.pod(true))
		}
		o.rv = g.nextRV()
		return o
	case 13:
		if g.c.intn(2) == 0 {
			return op{kind: opResync}
		}
		return op{kind: opBookmark, rv: g.nextRV()}
	case 14:
		o := op{kind: opAddIndexers}
		for range 1 + g.c.intn(2) {
			f := pick(g.c, laterIndexFuncs...)
			if !slices.ContainsFunc(o.indexers, func(x namedIndexFunc) bool { return x.name == f.name }) {
				o.indexers = append(o.indexers, f)
			}
		}
		return o
	default:
		o := op{kind: opTransaction}
		for range 1 + g.c.intn(4) {
			typ := pick(g.c, "Add", "Update", "Delete")
			var obj interface{} = g.pod(false)
			if g.c.intn(10) == 0 {
				obj = notAnObject{Name: "in-a-txn"}
			}
			o.txns = append(o.txns, txn{typ: typ, obj: obj})
		}
		return o
	}
}

// newRand is the seeded PRNG of the fixed-seed tests.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x04)) }
