package playground

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Options change how the playground starts. The zero value is what demos use.
type Options struct {
	// DisableWatchCache starts the apiserver with --watch-cache=false, so every
	// LIST and WATCH goes to etcd. That is what makes 410 Gone reproducible:
	// after an etcd compaction, a watch or continue token from before it fails.
	DisableWatchCache bool
	// Progress receives the build and start-up lines; nil means os.Stderr.
	Progress io.Writer
	// ExtraAPIServerArgs are appended to the apiserver's command line.
	ExtraAPIServerArgs []string
}

// Cluster is a running playground. Stop it when done.
type Cluster struct {
	// Dir is the temporary directory holding etcd's data, the certificates,
	// the logs and the kubeconfig; Stop removes it.
	Dir string
	// Kubeconfig is the path of a kubeconfig for the cluster's admin user.
	Kubeconfig string
	// Host is the apiserver's https URL.
	Host string
	// EtcdURL is etcd's client URL: https on loopback, and etcd wants a
	// client certificate from the playground's CA (see credentials).
	EtcdURL string

	// owner holds the directory's lock (see lockOwnership) until Stop.
	owner *os.File
	token string
	caPEM []byte
	etcd  *process
	// What RestartAPIServer needs to start the apiserver again as Start did.
	bins  Binaries
	creds *credentials
	opts  Options
	// mu guards api, which RestartAPIServer replaces while tests read PIDs.
	mu       sync.Mutex
	api      *process
	restarts int
	stopped  bool
	stopOnce sync.Once
	stopErr  error
}

const dirPrefix = "informer-playground-"

// Start builds the binaries if needed, then starts etcd and the apiserver on
// free loopback ports and waits until the apiserver is ready. If ctx is
// cancelled before that, everything started so far is stopped.
func Start(ctx context.Context, opts Options) (_ *Cluster, err error) {
	progress := opts.Progress
	if progress == nil {
		progress = os.Stderr
	}
	bins, err := EnsureBinaries(ctx, progress)
	if err != nil {
		return nil, err
	}
	sweepStaleDirs()

	dir, err := os.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	if c.owner, err = lockOwnership(dir); err != nil {
		return nil, err
	}
	creds, err := writeCredentials(dir)
	if err != nil {
		return nil, fmt.Errorf("writing playground credentials: %w", err)
	}
	c.token, c.caPEM = creds.token, creds.caPEM
	c.bins, c.creds, c.opts = bins, creds, opts

	// A port found free can be taken before a child binds it (by another
	// playground's outgoing connections, say, when test packages run in
	// parallel): then start again on new ports, a few times.
	for attempt := 1; ; attempt++ {
		err = c.startChildren(ctx, bins, creds, opts)
		if err == nil {
			break
		}
		if attempt == 3 || !errors.Is(err, errPortTaken) {
			return nil, err
		}
		say(progress, sayPortTaken)
		if err := c.stopChildren(); err != nil {
			return nil, err
		}
	}
	// readyz does not wait for the bootstrap controller to create the
	// "default" namespace; demos and tests may use it straight away.
	if err := c.waitFor(ctx, c.api, c.Host+"/api/v1/namespaces/default", true); err != nil {
		return nil, err
	}
	c.Kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := clientcmd.WriteToFile(c.kubeconfig(), c.Kubeconfig); err != nil {
		return nil, err
	}
	return c, nil
}

// startChildren starts etcd and then the apiserver on free ports, and waits
// until the apiserver is ready.
func (c *Cluster) startChildren(ctx context.Context, bins Binaries, creds *credentials, opts Options) error {
	ports, err := pickPorts(3)
	if err != nil {
		return err
	}
	etcdClient, etcdPeer, apiPort := ports[0], ports[1], ports[2]
	c.EtcdURL = fmt.Sprintf("https://127.0.0.1:%d", etcdClient)
	c.Host = fmt.Sprintf("https://127.0.0.1:%d", apiPort)

	c.etcd, err = startProcess(c.Dir, "etcd", "etcd.log", bins.Etcd, etcdArgs(c.Dir, creds, etcdClient, etcdPeer)...)
	if err != nil {
		return err
	}
	if err := c.waitFor(ctx, c.etcd, c.EtcdURL+"/health", false); err != nil {
		return err
	}
	api, err := c.startAPIServer(ctx, "kube-apiserver.log", apiPort)
	c.mu.Lock()
	c.api = api
	c.mu.Unlock()
	return err
}

// startAPIServer starts the apiserver on port, logging to logName in the
// playground's directory, and waits until it is ready. On an error the
// process it returns (if any) is still to be stopped.
func (c *Cluster) startAPIServer(ctx context.Context, logName string, port int) (*process, error) {
	api, err := startProcess(c.Dir, "kube-apiserver", logName, c.bins.APIServer,
		append(apiserverArgs(c.Dir, c.creds, c.EtcdURL, port, c.opts), c.opts.ExtraAPIServerArgs...)...)
	if err != nil {
		return nil, err
	}
	return api, c.waitFor(ctx, api, c.Host+"/readyz", true)
}

// stopChildren stops what startChildren started and removes etcd's data, so
// that the next attempt starts a new etcd from nothing.
func (c *Cluster) stopChildren() error {
	var errs []error
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.api != nil {
		errs = append(errs, c.api.stop(15*time.Second))
		c.api = nil
	}
	if c.etcd != nil {
		errs = append(errs, c.etcd.stop(10*time.Second))
		c.etcd = nil
	}
	errs = append(errs, os.RemoveAll(filepath.Join(c.Dir, "etcd")))
	return errors.Join(errs...)
}

func etcdArgs(dir string, creds *credentials, clientPort, peerPort int) []string {
	client := fmt.Sprintf("https://127.0.0.1:%d", clientPort)
	// No peer ever joins: the peer port is only bound, so plain http.
	peer := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	return []string{
		"--name=playground",
		"--data-dir=" + filepath.Join(dir, "etcd"),
		"--listen-client-urls=" + client,
		"--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=playground=" + peer,
		// TLS with client certificates, both from the playground's CA:
		// only the apiserver and we can talk to this etcd, and only this
		// etcd can answer us (waitFor).
		"--cert-file=" + creds.etcdCertFile,
		"--key-file=" + creds.etcdKeyFile,
		"--client-cert-auth",
		"--trusted-ca-file=" + creds.caFile,
		"--log-level=warn",
		// A throwaway cluster: skip fsync, it only costs time.
		"--unsafe-no-fsync",
	}
}

func apiserverArgs(dir string, creds *credentials, etcdURL string, port int, opts Options) []string {
	args := []string{
		"--etcd-servers=" + etcdURL,
		"--etcd-cafile=" + creds.caFile,
		"--etcd-certfile=" + creds.clientCertFile,
		"--etcd-keyfile=" + creds.clientKeyFile,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--tls-cert-file=" + creds.certFile,
		"--tls-private-key-file=" + creds.keyFile,
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--token-auth-file=" + creds.tokenFile,
		"--anonymous-auth=false",
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + creds.saPubFile,
		"--service-account-signing-key-file=" + creds.saKeyFile,
		"--service-cluster-ip-range=10.0.0.0/24",
		// No controller-manager runs here: nobody reconciles the endpoints of
		// the kubernetes service, and nobody creates service accounts.
		"--endpoint-reconciler-type=none",
		"--disable-admission-plugins=ServiceAccount",
		"--profiling=false",
	}
	if opts.DisableWatchCache {
		args = append(args, "--watch-cache=false")
	}
	return args
}

// waitFor polls url until our child answers it with 200, the child dies,
// ctx ends, or a minute passes. Every answer comes over TLS verified against
// the playground's own CA, so an answer is our child's: a server that took
// the port first (another etcd answers /health just as well) fails the
// handshake, and that is errPortTaken, on which Start tries other ports.
// This holds on every system, with nothing to read from /proc.
func (c *Cluster) waitFor(ctx context.Context, p *process, rawURL string, auth bool) error {
	client := c.httpClient()
	deadline := time.Now().Add(time.Minute)
	var strangerSince time.Time
	for {
		select {
		case <-p.exited:
			return p.diedError()
		default:
		}
		err := c.get(ctx, client, rawURL, auth)
		if err == nil {
			return nil
		}
		if isStranger(err) {
			err = fmt.Errorf("%w: a server that is not %s (pid %d) answers %s: %v", errPortTaken, p.name, p.cmd.Process.Pid, rawURL, err)
			// Our child may still be starting (it then fails to bind and
			// exits), or hang: five seconds of a stranger's answers is
			// enough either way.
			if strangerSince.IsZero() {
				strangerSince = time.Now()
			} else if time.Since(strangerSince) > 5*time.Second {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.exited:
			return p.diedError()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after a minute (%v); last lines of %s:\n%s", p.name, err, p.logPath, p.logTail(20))
		}
	}
}

// isStranger reports an error that only a server other than our child
// gives: one that does not speak TLS, or whose certificate our CA did not
// sign. A refused connection is not one: our child may not listen yet.
func isStranger(err error) bool {
	var header tls.RecordHeaderError
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	return errors.As(err, &header) || errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname)
}

func (c *Cluster) httpClient() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.caPEM)
	return &http.Client{
		Timeout: 5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{
			RootCAs: pool,
			// etcd asks for it; the apiserver does not, and it is not sent.
			Certificates: []tls.Certificate{c.creds.client},
		}},
	}
}

func (c *Cluster) get(ctx context.Context, client *http.Client, url string, auth bool) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if auth {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w: %s answered %s", errNotReady, url, resp.Status)
	}
	return nil
}

func (c *Cluster) kubeconfig() clientcmdapi.Config {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["playground"] = &clientcmdapi.Cluster{Server: c.Host, CertificateAuthorityData: c.caPEM}
	cfg.AuthInfos["playground-admin"] = &clientcmdapi.AuthInfo{Token: c.token}
	cfg.Contexts["playground"] = &clientcmdapi.Context{Cluster: "playground", AuthInfo: "playground-admin"}
	cfg.CurrentContext = "playground"
	return *cfg
}

// RESTConfig returns a fresh client configuration for the cluster. The client
// rate limit is raised from client-go's default of 5 QPS, which would make
// demos and tests that create many objects crawl.
func (c *Cluster) RESTConfig() *rest.Config {
	return &rest.Config{
		Host:            c.Host,
		BearerToken:     c.token,
		TLSClientConfig: rest.TLSClientConfig{CAData: c.caPEM},
		QPS:             100,
		Burst:           200,
	}
}

// Stop stops the apiserver, then etcd, then removes the directory. It is safe
// to call more than once and from a deferred call after a failed Start.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() {
		var errs []error
		c.mu.Lock()
		defer c.mu.Unlock()
		c.stopped = true
		if c.api != nil {
			errs = append(errs, c.api.stop(15*time.Second))
		}
		if c.etcd != nil {
			errs = append(errs, c.etcd.stop(10*time.Second))
		}
		errs = append(errs, os.RemoveAll(c.Dir))
		if c.owner != nil {
			c.owner.Close()
		}
		c.stopErr = errors.Join(errs...)
	})
	return c.stopErr
}

// Binaries are the programs the playground runs: where they came from
// (its own build, or a directory the learner named) and their versions.
func (c *Cluster) Binaries() Binaries { return c.bins }

// PIDs returns the process ids of etcd and the apiserver, for tests that
// check nothing is left running.
func (c *Cluster) PIDs() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var pids []int
	for _, p := range []*process{c.etcd, c.api} {
		if p != nil {
			pids = append(pids, p.cmd.Process.Pid)
		}
	}
	return pids
}
