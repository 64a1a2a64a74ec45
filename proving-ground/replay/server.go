package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// Options say how the server answers.
type Options struct {
	Encoding Encoding
	// Paged makes a LIST honour limit and continue, as the apiserver does
	// when it lists from etcd. Without it a LIST ignores limit and answers in
	// one piece, as the apiserver's watch cache answers the
	// resourceVersion="0" LIST a reflector starts with.
	Paged bool
	// MaxPageSize, if set, caps a page below the client's limit, as the
	// apiserver may: a test gets several pages from a few pods.
	MaxPageSize int64
	// Updates is how many update events Send can stream, encoded up front.
	Updates int
}

// Server answers LIST, WATCH and WatchList requests for pods on loopback
// from bytes encoded once, when it starts: every client gets the same bytes
// and the server does no encoding work while a client is measured.
//
// It serves /api/v1/pods (every namespace) only and ignores selectors. The
// list's resourceVersion is the number of pods; a WATCH from any
// resourceVersion starts with no events, a WatchList starts with an ADDED
// event per pod and the bookmark that ends the initial events. Either then
// gets the update events Send streams.
type Server struct {
	opts     Options
	pods     []corev1.Pod
	enc      *encoder
	rv       string
	full     []byte   // the unpaged LIST
	initial  [][]byte // a WatchList's ADDED events, then its bookmark
	updates  [][]byte // update i changes pod i%len(pods) to resourceVersion len(pods)+1+i
	pagesMu  sync.Mutex
	pages    map[int64][][]byte // the pages of a paged LIST, by limit
	ln       net.Listener
	srv      *http.Server
	counts   Counts
	mu       sync.Mutex
	watchers map[*watcher]struct{}
	joined   chan struct{} // closed and replaced when a watch opens
	closing  chan struct{}
}

// Counts are the requests the server has answered, by kind.
type Counts struct {
	Lists      atomic.Int64 // LIST requests, pages included
	Watches    atomic.Int64 // WATCH requests from a resourceVersion
	WatchLists atomic.Int64 // WATCH requests with sendInitialEvents=true
}

type watcher struct {
	frames chan []byte
}

// Start encodes the pods and starts serving them on 127.0.0.1.
func Start(pods []corev1.Pod, opts Options) (*Server, error) {
	enc, err := newEncoder(opts.Encoding)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts: opts, pods: pods, enc: enc, rv: strconv.Itoa(len(pods)),
		pages: map[int64][][]byte{}, watchers: map[*watcher]struct{}{},
		joined: make(chan struct{}), closing: make(chan struct{}),
	}
	if err := s.encodeAll(); err != nil {
		return nil, fmt.Errorf("replay: encoding %d pods as %s: %w", len(pods), opts.Encoding, err)
	}
	if opts.Paged {
		// The reflector's pager asks for 500 at a time: encode those pages
		// now, not while the first client waits.
		if _, err := s.pagesFor(500); err != nil {
			return nil, err
		}
	}
	s.ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(s.ln)
	return s, nil
}

func (s *Server) encodeAll() error {
	var err error
	if s.full, err = s.enc.list(s.rv, s.pods, "", 0); err != nil {
		return err
	}
	for i := range s.pods {
		frame, err := s.enc.event(watch.Added, &s.pods[i])
		if err != nil {
			return err
		}
		s.initial = append(s.initial, frame)
	}
	bookmark, err := s.enc.bookmark(s.rv)
	if err != nil {
		return err
	}
	s.initial = append(s.initial, bookmark)
	for i := range s.opts.Updates {
		frame, err := s.enc.event(watch.Modified, UpdatedPod(s.pods, i))
		if err != nil {
			return err
		}
		s.updates = append(s.updates, frame)
	}
	return nil
}

// UpdatedPod is update i as Send streams it: pod i%len(pods) with a new
// resourceVersion and one annotation changed.
func UpdatedPod(pods []corev1.Pod, i int) *corev1.Pod {
	p := pods[i%len(pods)].DeepCopy()
	p.ResourceVersion = strconv.Itoa(len(pods) + 1 + i)
	p.Annotations["replay/generation"] = strconv.Itoa(i)
	return p
}

// UpdateIndex is the i of UpdatedPod(pods, i), from its resourceVersion and
// the number of pods; -1 for a pod that is no update.
func UpdateIndex(resourceVersion string, pods int) int {
	rv, err := strconv.Atoi(resourceVersion)
	if err != nil || rv <= pods {
		return -1
	}
	return rv - pods - 1
}

// URL is the server's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Counts are the requests answered so far.
func (s *Server) Counts() *Counts { return &s.counts }

// RESTConfig is a client configuration for this server in its encoding,
// with client-side rate limiting off: a paged LIST of 50,000 pods is 100
// requests, which client-go's default 5 requests per second would stretch
// to 20 seconds of waiting.
func (s *Server) RESTConfig() *rest.Config {
	return ConfigFor(s.URL(), s.opts.Encoding)
}

// ConfigFor is RESTConfig for a server at url, for a client in another
// process.
func ConfigFor(url string, e Encoding) *rest.Config {
	return &rest.Config{Host: url, ContentConfig: rest.ContentConfig{ContentType: e.MediaType(), AcceptContentTypes: e.MediaType()}, QPS: -1}
}

// Close stops serving and ends every open watch.
func (s *Server) Close() error {
	close(s.closing)
	return s.srv.Close()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/replay/send" && r.Method == http.MethodPost:
		s.serveSend(w, r)
	case r.URL.Path != "/api/v1/pods" || r.Method != http.MethodGet:
		http.Error(w, "replay: only GET /api/v1/pods is served", http.StatusNotFound)
	case r.URL.Query().Get("watch") == "true" || r.URL.Query().Get("watch") == "1":
		s.serveWatch(w, r)
	default:
		s.serveList(w, r)
	}
}

func (s *Server) serveList(w http.ResponseWriter, r *http.Request) {
	s.counts.Lists.Add(1)
	body := s.full
	limit, _ := strconv.ParseInt(r.URL.Query().Get("limit"), 10, 64)
	if s.opts.Paged && limit > 0 {
		if s.opts.MaxPageSize > 0 {
			limit = min(limit, s.opts.MaxPageSize)
		}
		pages, err := s.pagesFor(limit)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		page := 0
		if c := r.URL.Query().Get("continue"); c != "" {
			if page, err = strconv.Atoi(c); err != nil || page <= 0 || page >= len(pages) {
				http.Error(w, "replay: bad continue token "+strconv.Quote(c), http.StatusBadRequest)
				return
			}
		}
		body = pages[page]
	}
	w.Header().Set("Content-Type", s.opts.Encoding.MediaType())
	w.Write(body)
}

// pagesFor encodes the pages for a limit once; the continue token of page
// k is "k".
func (s *Server) pagesFor(limit int64) ([][]byte, error) {
	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	if pages, ok := s.pages[limit]; ok {
		return pages, nil
	}
	var pages [][]byte
	for start := 0; start == 0 || start < len(s.pods); start += int(limit) {
		end := min(start+int(limit), len(s.pods))
		cont := ""
		if end < len(s.pods) {
			cont = strconv.Itoa(len(pages) + 1)
		}
		page, err := s.enc.list(s.rv, s.pods[start:end], cont, len(s.pods)-end)
		if err != nil {
			return nil, err
		}
		pages = append(pages, page)
	}
	s.pages[limit] = pages
	return pages, nil
}

func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "replay: cannot stream", http.StatusInternalServerError)
		return
	}
	contentType := s.opts.Encoding.MediaType()
	if s.opts.Encoding == Protobuf {
		contentType += ";stream=watch"
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	if r.URL.Query().Get("sendInitialEvents") == "true" {
		s.counts.WatchLists.Add(1)
		for _, frame := range s.initial {
			if _, err := w.Write(frame); err != nil {
				return
			}
		}
	} else {
		s.counts.Watches.Add(1)
	}
	flusher.Flush()

	wt := &watcher{frames: make(chan []byte, 256)}
	s.mu.Lock()
	s.watchers[wt] = struct{}{}
	close(s.joined)
	s.joined = make(chan struct{})
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.watchers, wt)
		s.mu.Unlock()
	}()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case frame := <-wt.frames:
			if _, err := w.Write(frame); err != nil {
				return
			}
			// Flush when nothing else is waiting, as the apiserver does: a
			// burst goes out in few writes, a lone event at once.
			if len(wt.frames) == 0 {
				flusher.Flush()
			}
		}
	}
}

// Send streams updates [from, from+count) to every open watch, waiting
// first for one to open, one every interval (0: as fast as the watches
// take them). It returns when each has been handed to every watch, with the
// wall-clock time (Unix nanoseconds) at which each was.
func (s *Server) Send(ctx context.Context, from, count int, interval time.Duration) ([]int64, error) {
	if from < 0 || count < 0 || from+count > len(s.updates) {
		return nil, fmt.Errorf("replay: updates %d to %d asked for, %d prepared", from, from+count, len(s.updates))
	}
	watchers, err := s.waitForWatchers(ctx)
	if err != nil {
		return nil, err
	}
	sent := make([]int64, count)
	next := time.Now()
	for i := range count {
		if interval > 0 {
			next = next.Add(interval)
			if d := time.Until(next); d > 0 {
				time.Sleep(d)
			}
		}
		sent[i] = time.Now().UnixNano()
		for _, wt := range watchers {
			select {
			case wt.frames <- s.updates[from+i]:
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-s.closing:
				return nil, errors.New("replay: server closed")
			}
		}
	}
	return sent, nil
}

func (s *Server) waitForWatchers(ctx context.Context) ([]*watcher, error) {
	for {
		s.mu.Lock()
		var watchers []*watcher
		for wt := range s.watchers {
			watchers = append(watchers, wt)
		}
		joined := s.joined
		s.mu.Unlock()
		if len(watchers) > 0 {
			return watchers, nil
		}
		select {
		case <-joined:
		case <-ctx.Done():
			return nil, fmt.Errorf("replay: no watch opened: %w", ctx.Err())
		}
	}
}

// serveSend is Send over HTTP, for a client in another process:
// POST /replay/send?from=F&count=C&interval=D answers the send times as a
// JSON array.
func (s *Server) serveSend(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	from, err1 := strconv.Atoi(q.Get("from"))
	count, err2 := strconv.Atoi(q.Get("count"))
	interval, err3 := time.ParseDuration(q.Get("interval"))
	if err := errors.Join(err1, err2, err3); err != nil {
		http.Error(w, "replay: /replay/send needs from, count and interval: "+err.Error(), http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Minute)
	defer cancel()
	sent, err := s.Send(ctx, from, count, interval)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(sent)
}
