package demo

import (
	"context"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"informer-from-scratch/internal/lang"
)

// loadKubeconfig builds a client configuration from a kubeconfig file and
// describes it without credentials: the context name and the server URL.
func loadKubeconfig(path string) (*rest.Config, described, error) {
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: path}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, described{}, lang.Errorf(sayReadKubeconfig, path, err)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, described{}, lang.Errorf(sayBadKubeconfig, path, err)
	}
	return cfg, described{raw.CurrentContext, cfg.Host, path}, nil
}

// described is a cluster as the banner names it.
type described struct{ context, host, path string }

func (d described) Sprintf(l string) string {
	return sayKubeconfigDesc.Sprintf(l, d.context, d.host, d.path)
}

// reachTimeout is how long reachable waits for the cluster's answer.
const reachTimeout = 10 * time.Second

// reachable fails fast, with one sentence, when the cluster cannot be reached
// within timeout, instead of letting the first LIST retry for minutes. The
// request carries the deadline, so when it passes the request is abandoned
// too: nothing is left waiting on the cluster.
func reachable(ctx context.Context, client kubernetes.Interface, host string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := client.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Error()
	switch {
	case err == nil:
		return nil
	case ctx.Err() == context.DeadlineExceeded:
		return lang.Errorf(sayNoAnswer, host, timeout)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return lang.Errorf(sayUnreachable, host, err)
}
