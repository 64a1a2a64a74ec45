package faultproxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/client-go/rest"
)

// Options tune a Proxy. The zero value is usable.
type Options struct {
	// Seed makes every random choice (which item of a list a body fault
	// edits) repeatable.
	Seed uint64
	// StallFor is how long Stall holds a response or a watch; default 2s.
	StallFor time.Duration
	// Spread is how many requests (or LIST bodies, or watch events) one
	// Inject of a request fault reaches; default 2, so that both of two
	// informers watching through the proxy are likely to meet it.
	Spread int
	// OnFault, if set, hears every fault as it hits, on the proxy's
	// goroutines: it must return quickly.
	OnFault func(Fault)
	// OnServerError, if set, hears every ERROR event the apiserver itself
	// sends on a watch (a real 410 after a compaction), as the proxy
	// relays it: resource, code and reason.
	OnServerError func(resource string, code int, reason string)
}

// Proxy is a running fault-injecting proxy. Close it when done.
type Proxy struct {
	// URL is the proxy's plain-HTTP loopback address.
	URL string

	upstream  *url.URL
	transport http.RoundTripper
	addr      string // the loopback address, kept across Disconnect
	opts      Options
	closing   chan struct{} // closed by Close: every stream ends
	handlers  sync.WaitGroup

	mu      sync.Mutex
	server  *http.Server // nil while disconnected
	closed  bool
	rand    *rand.Rand
	armed   map[Kind]int
	streams map[*stream]struct{}
	stats   Stats
}

// Stats counts what went through the proxy.
type Stats struct {
	Requests int // every request, watches included
	Watches  int // watch requests the apiserver accepted
	// Faults counts the faults that hit, by kind; Skipped those that could
	// not be applied (a protobuf body, no watch open).
	Faults  map[Kind]int
	Skipped map[Kind]int
	// ServerErrors counts the ERROR events the apiserver itself sent on a
	// watch, by HTTP code (410 after a compaction).
	ServerErrors map[int]int
	// Unreachable counts requests the apiserver could not be reached for
	// (it went away without a Disconnect): each was answered 502.
	Unreachable int
}

// Start starts a proxy on a free loopback port in front of the apiserver
// that upstream reaches (its host, TLS and credentials).
func Start(upstream *rest.Config, opts Options) (*Proxy, error) {
	if opts.StallFor == 0 {
		opts.StallFor = 2 * time.Second
	}
	if opts.Spread == 0 {
		opts.Spread = 2
	}
	u, err := url.Parse(upstream.Host)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: upstream host %q: %w", upstream.Host, err)
	}
	transport, err := rest.TransportFor(upstream)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: upstream transport: %w", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faultproxy: listening on loopback: %w", err)
	}
	p := &Proxy{
		URL:       "http://" + l.Addr().String(),
		addr:      l.Addr().String(),
		upstream:  u,
		transport: transport,
		opts:      opts,
		closing:   make(chan struct{}),
		rand:      rand.New(rand.NewPCG(opts.Seed, 0xfa017)),
		armed:     map[Kind]int{},
		streams:   map[*stream]struct{}{},
		stats:     Stats{Faults: map[Kind]int{}, Skipped: map[Kind]int{}, ServerErrors: map[int]int{}},
	}
	p.serve(l)
	return p, nil
}

func (p *Proxy) serve(l net.Listener) {
	p.server = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go p.server.Serve(l)
}

// Disconnect closes the proxy's listener and every connection through it,
// as an apiserver that stops does: open watches end, and until Reconnect a
// client's new connection is refused (nothing listens on the port), which
// is what client-go's reflector expects of a restarting server
// (utilnet.IsConnectionRefused: back off, then watch again from the same
// resourceVersion). A caller restarting the apiserver brackets the restart
// with the two.
func (p *Proxy) Disconnect() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.server == nil || p.closed {
		return nil
	}
	err := p.server.Close()
	p.server = nil
	return err
}

// Reconnect listens again on the same address.
func (p *Proxy) Reconnect() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.server != nil || p.closed {
		return nil
	}
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("faultproxy: listening again on %s: %w", p.addr, err)
	}
	p.serve(l)
	return nil
}

// RESTConfig is a client configuration that goes through the proxy. It
// carries no credentials: the proxy adds the apiserver's.
func (p *Proxy) RESTConfig() *rest.Config {
	return &rest.Config{Host: p.URL, QPS: 100, Burst: 200}
}

// Inject makes a fault happen: at once to every open watch (CutWatch, Gone,
// and Stall too), or to the next Spread requests or bodies (TooManyRequests,
// ServerError, Stall, Malformed, WrongType). Compact and Restart are the
// caller's to make: Inject refuses them.
func (p *Proxy) Inject(k Kind) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch k {
	case CutWatch, Gone:
		if len(p.streams) == 0 {
			p.stats.Skipped[k]++
			return nil
		}
		p.broadcast(k)
	case Stall:
		p.broadcast(k)
		p.armed[k] += p.opts.Spread
	case TooManyRequests, ServerError, Malformed, WrongType:
		p.armed[k] += p.opts.Spread
	default:
		return fmt.Errorf("faultproxy: %q is not a fault the proxy makes", k)
	}
	return nil
}

// broadcast tells every open watch; p.mu is held.
func (p *Proxy) broadcast(k Kind) {
	for s := range p.streams {
		select {
		case s.cmds <- k:
		default: // that watch has faults enough queued
		}
	}
}

// Disarm forgets every fault injected but not yet hit: the faults end.
func (p *Proxy) Disarm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.armed)
}

// Stats returns a copy of the counts so far.
func (p *Proxy) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.Faults, s.Skipped, s.ServerErrors = make(map[Kind]int), make(map[Kind]int), make(map[int]int)
	for c, n := range p.stats.ServerErrors {
		s.ServerErrors[c] = n
	}
	for k, n := range p.stats.Faults {
		s.Faults[k] = n
	}
	for k, n := range p.stats.Skipped {
		s.Skipped[k] = n
	}
	return s
}

// Close ends every stream, stops the server, waits for every request in
// flight to end and drops the idle upstream connections.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	close(p.closing)
	var err error
	if p.server != nil {
		err = p.server.Close()
	}
	p.mu.Unlock()
	p.handlers.Wait()
	utilnet.CloseIdleConnectionsFor(p.transport)
	return err
}

// take uses up one armed fault of kind k, if there is one.
func (p *Proxy) take(k Kind) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.armed[k] == 0 {
		return false
	}
	p.armed[k]--
	return true
}

// intN is the seeded random source, shared by every request.
func (p *Proxy) intN(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rand.IntN(n)
}

// hit counts a fault and tells OnFault.
func (p *Proxy) hit(f Fault) {
	p.mu.Lock()
	if f.Skipped {
		p.stats.Skipped[f.Kind]++
	} else {
		p.stats.Faults[f.Kind]++
	}
	p.mu.Unlock()
	if p.opts.OnFault != nil {
		p.opts.OnFault(f)
	}
}

// ServeHTTP forwards one request, misbehaving as armed.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		writeStatus(w, http.StatusServiceUnavailable, metav1.StatusReasonServiceUnavailable, "faultproxy: closed", nil)
		return
	}
	p.handlers.Add(1)
	p.stats.Requests++
	p.mu.Unlock()
	defer p.handlers.Done()

	watching := r.URL.Query().Get("watch") == "true" || r.URL.Query().Get("watch") == "1"
	res := resourceOf(r.URL.Path, watching)
	switch {
	case p.take(TooManyRequests):
		p.hit(Fault{Kind: TooManyRequests, Resource: res, Detail: "429 Too Many Requests, Retry-After: 1"})
		writeStatus(w, http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests,
			"faultproxy: too many requests, please try again later", http.Header{"Retry-After": {"1"}})
		return
	case p.take(ServerError):
		p.hit(Fault{Kind: ServerError, Resource: res, Detail: "500 Internal Server Error"})
		writeStatus(w, http.StatusInternalServerError, metav1.StatusReasonInternalError, "faultproxy: an internal error, injected", nil)
		return
	case p.take(Stall):
		p.hit(Fault{Kind: Stall, Resource: res, Detail: fmt.Sprintf("response held for %s", p.opts.StallFor)})
		if !p.sleep(r.Context(), p.opts.StallFor) {
			return
		}
	}

	resp, err := p.forward(r)
	if err != nil {
		if r.Context().Err() != nil {
			return
		}
		p.mu.Lock()
		p.stats.Unreachable++
		p.mu.Unlock()
		writeStatus(w, http.StatusBadGateway, metav1.StatusReasonServiceUnavailable,
			fmt.Sprintf("faultproxy: the apiserver is unreachable: %v", err), nil)
		return
	}
	defer resp.Body.Close()
	if watching && resp.StatusCode == http.StatusOK {
		p.mu.Lock()
		p.stats.Watches++
		p.mu.Unlock()
		p.stream(w, r, resp, res)
		return
	}
	p.relay(w, resp, res, r.Method == http.MethodGet)
}

// forward sends r on to the apiserver.
func (p *Proxy) forward(r *http.Request) (*http.Response, error) {
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Host = ""
	out.URL.Scheme, out.URL.Host = p.upstream.Scheme, p.upstream.Host
	// The upstream transport adds the credentials, and asks for gzip
	// itself (and undoes it) only when the request did not: a body the
	// proxy may edit must arrive plain.
	out.Header.Del("Authorization")
	out.Header.Del("Accept-Encoding")
	out.Header.Del("Connection")
	return p.transport.RoundTrip(out)
}

// relay copies a whole response, editing a JSON LIST body as armed.
func (p *Proxy) relay(w http.ResponseWriter, resp *http.Response, res string, get bool) {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		// The apiserver went away mid-answer: so does the proxy.
		panic(http.ErrAbortHandler)
	}
	if get && resp.StatusCode == http.StatusOK {
		body = p.editList(body, resp.Header.Get("Content-Type"), res)
	}
	copyHeader(w.Header(), resp.Header)
	w.Header().Del("Content-Length")
	w.WriteHeader(resp.StatusCode)
	w.Write(body)
}

// sleep waits d, or less if the request or the proxy ends first; it
// reports whether the wait ran out.
func (p *Proxy) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-p.closing:
	}
	return false
}

// resourceOf shortens a path to its resource: /api/v1/namespaces/ns/pods →
// "pods", with " watch" after a watch's.
func resourceOf(path string, watching bool) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	res := parts[len(parts)-1]
	if watching {
		res += " watch"
	}
	return res
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		dst[k] = append([]string(nil), vs...)
	}
}

// writeStatus answers with a metav1.Status, as the apiserver does, so
// clients decode the error they would get from it.
func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, msg string, header http.Header) {
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  msg,
		Reason:   reason,
		Code:     int32(code),
	}
	if ra := header.Get("Retry-After"); ra != "" {
		st.Details = &metav1.StatusDetails{RetryAfterSeconds: 1}
	}
	body, _ := json.Marshal(st)
	copyHeader(w.Header(), header)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(body)
}

func isJSON(contentType string) bool { return strings.HasPrefix(contentType, "application/json") }
