package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/proving-ground/replay"
)

// playgroundRuns is the check on the real thing: n of the replay's pods
// created on a playground, then client-go's informer, ours and the decode-and-keep floor
// sync from its apiserver (watch cache on, as on a real cluster), by
// WatchList and by LIST, in JSON.
func (b *bench) playgroundRuns(n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	b.progress("playground: starting")
	c, err := playground.Start(ctx, playground.Options{Progress: os.Stderr})
	if err != nil {
		return err
	}
	defer c.Stop()
	b.apiserver = c.Binaries().APIServerVersion
	cfg := c.RESTConfig()
	cfg.QPS = -1
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	b.progress("playground: creating %d pods", n)
	if err := createPods(ctx, client, n); err != nil {
		return err
	}
	b.progress("playground: %d pods created", n)
	var specs []spec
	for _, mode := range []string{"watchlist", "list"} {
		for _, impl := range impls[:2] {
			specs = append(specs, spec{Kind: "sync", Impl: impl, Kubeconfig: c.Kubeconfig, Encoding: replay.JSON, Mode: mode, N: n})
		}
		specs = append(specs, spec{Kind: "keep", Impl: "keep", Kubeconfig: c.Kubeconfig, Encoding: replay.JSON, Mode: mode, N: n})
	}
	return b.repeat("playground", specs)
}

// createPods creates the replay's first n pods (without the fields the
// server sets itself) and their namespaces, eight at a time.
func createPods(ctx context.Context, client kubernetes.Interface, n int) error {
	for i := range replay.Namespaces {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("team-%02d", i)}}
		if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	pods := replay.Pods(n)
	work := make(chan *corev1.Pod)
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for p := range work {
				if _, err := client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var err error
feed:
	for i := range pods {
		p := &pods[i]
		p.ResourceVersion, p.UID, p.ManagedFields, p.GenerateName = "", "", nil, ""
		select {
		case work <- p:
		case err = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}
