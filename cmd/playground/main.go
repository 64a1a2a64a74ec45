// Command playground builds and runs the local Kubernetes playground by hand.
//
//	go run ./cmd/playground build            build kube-apiserver and etcd (make test needs these)
//	go run ./cmd/playground build --kubectl  also build kubectl (make playground)
//	go run ./cmd/playground up               run one in the foreground until Ctrl-C (make playground-up)
//
// `up` prints the lines to paste into a second terminal, so a learner can
// change the cluster with kubectl while a stage demo (pointed at it by
// INFORMER_KUBECONFIG, which the pasted lines export) or their own code
// watches it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"informer-from-scratch/internal/playground"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "build":
		err = build(ctx, os.Args[2:])
	case "up":
		err = up(ctx, os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(os.Stderr, "interrupted")
			os.Exit(130)
		}
		fmt.Fprintf(os.Stderr, "playground: %v\n", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: playground build [--kubectl] | playground up [--no-watch-cache]")
	os.Exit(2)
}

func build(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	kubectl := fs.Bool("kubectl", false, "also build kubectl")
	fs.Parse(args)
	var bins playground.Binaries
	var err error
	if *kubectl {
		bins, err = playground.EnsureKubectl(ctx, os.Stderr)
	} else {
		bins, err = playground.EnsureBinaries(ctx, os.Stderr)
	}
	if err != nil {
		return err
	}
	fmt.Printf("playground binaries ready in %s\n", bins.Dir)
	return nil
}

func up(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("up", flag.ExitOnError)
	noCache := fs.Bool("no-watch-cache", false, "start the apiserver with --watch-cache=false (makes 410 Gone reproducible)")
	fs.Parse(args)
	bins, err := playground.EnsureKubectl(ctx, os.Stderr)
	if err != nil {
		return err
	}
	c, err := playground.Start(ctx, playground.Options{DisableWatchCache: *noCache})
	if err != nil {
		return err
	}
	defer func() {
		if err := c.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping: %v\n", err)
			return
		}
		fmt.Println("Playground stopped and its directory removed.")
	}()
	used := c.Binaries()
	fmt.Printf("Playground running: kube-apiserver %s at %s, etcd %s at %s\n", used.APIServerVersion, c.Host, used.EtcdVersion, c.EtcdURL)
	fmt.Printf("Logs: %s\n\n", c.Dir)
	fmt.Println("In a second terminal:")
	fmt.Printf("  export KUBECONFIG=%s            # for kubectl\n", c.Kubeconfig)
	// INFORMER_KUBECONFIG is internal/demo's KubeconfigEnv.
	fmt.Printf("  export INFORMER_KUBECONFIG=%s   # for the stage demos, which ignore KUBECONFIG\n", c.Kubeconfig)
	fmt.Printf("  export PATH=%s:$PATH   # the kubectl built from the same Kubernetes version\n", filepath.Dir(bins.Kubectl))
	fmt.Println("  kubectl get pods -A")
	fmt.Println("  make run-stage 1                # any stage demo against this playground; there it only reads")
	fmt.Println("\nPress Ctrl-C to stop.")
	<-ctx.Done()
	return nil
}
