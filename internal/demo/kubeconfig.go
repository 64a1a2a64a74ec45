package demo

import (
	"context"
	"fmt"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// loadKubeconfig builds a client configuration from a kubeconfig file and
// describes it without credentials: the context name and the server URL.
func loadKubeconfig(path string) (*rest.Config, string, error) {
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: path}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, "", fmt.Errorf("reading kubeconfig %s: %w", path, err)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	return cfg, fmt.Sprintf("context %q at %s (from %s)", raw.CurrentContext, cfg.Host, path), nil
}

// reachable fails fast, with one sentence, when the cluster cannot be reached,
// instead of letting the first LIST retry for minutes.
func reachable(ctx context.Context, client kubernetes.Interface, host string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := client.Discovery().ServerVersion()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("cannot reach the cluster at %s: %w", host, err)
		}
		return nil
	case <-ctx.Done():
		if ctx.Err() == context.DeadlineExceeded {
			return fmt.Errorf("cannot reach the cluster at %s: no answer within 10s", host)
		}
		return ctx.Err()
	}
}
