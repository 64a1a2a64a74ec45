// Not a mirror of client-go: the browser view's HTTP server. It serves the
// page (static files embedded in the binary), the stream of Messages as
// Server-Sent Events, and the buttons' actions.

package webview

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"sync"
	"time"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// pipelines are the folds a Config can ask for, by Config.Pipeline.
var pipelines = map[string]pipeline{
	PipelineInformer:   informerPipeline,
	PipelineController: controllerPipeline,
}

//go:embed static
var static embed.FS

// Action is what a button does, on the demo's side. Its answer (or error)
// is shown on the page, in both languages: the page shows the one its
// toggle chose, and switches with it. An error made with lang.Errorf is
// said in both; any other in its own words.
type Action func(ctx context.Context) (lang.Text, error)

// Server serves one demo's page while the demo runs.
type Server struct {
	cfg      Config
	listener net.Listener
	hosts    map[string]bool // the Host headers served: see hostGuard
	http     *http.Server
	done     chan struct{} // closed by Close: the streams end
	unsub    func()

	mu      sync.Mutex
	model   *model
	recent  []string // the last rows' text, for a page that connects late
	step    *timeline.Row
	clients map[chan Message]struct{}
	actions map[string]Action
	acting  sync.Mutex // one action at a time
}

// clientBuffer is how many messages a slow page may fall behind before it
// is disconnected; its browser reconnects and starts from a snapshot.
const clientBuffer = 4096

// RecentRows is how many rows of text a page that connects late gets.
const RecentRows = 400

// Start listens on addr, which must be a loopback address (the page's
// buttons change the cluster: they are not for the room's network), and
// serves the page for cfg, fed by every row tl prints from now on. Port 0
// picks a free port; URL tells which.
func Start(addr string, cfg Config, tl *timeline.Timeline) (*Server, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	p, ok := pipelines[cfg.Pipeline]
	if !ok {
		return nil, fmt.Errorf("webview: no pipeline %q (want %q or %q)", cfg.Pipeline, PipelineInformer, PipelineController)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, lang.Errorf(sayAddrListen, addr, err)
	}
	s := &Server{
		cfg: cfg, listener: l, hosts: ownHosts(l.Addr()), done: make(chan struct{}),
		model: newModel(p), clients: map[chan Message]struct{}{}, actions: map[string]Action{},
	}
	files, _ := fs.Sub(static, "static")
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(files))
	mux.HandleFunc("GET /events", s.serveEvents)
	mux.HandleFunc("POST /act/{id}", s.serveAction)
	s.http = &http.Server{Handler: s.hostGuard(mux), ReadHeaderTimeout: 10 * time.Second}
	s.unsub = tl.Subscribe(s.publishRow)
	go s.http.Serve(l)
	return s, nil
}

func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return lang.Errorf(sayAddrShape, addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return lang.Errorf(sayAddrLoopback, addr)
	}
	return nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.listener.Addr().String() + "/" }

// Handle sets the action of a button of the Config.
func (s *Server) Handle(id string, a Action) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actions[id] = a
}

// Listener declares an event handler registration, before the rows that
// concern it: from now on, every notification the processor distributes is
// drawn into its ring too. Declare a handler just before adding it.
func (s *Server) Listener(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcast(s.model.listener(name))
}

// publishRow is the timeline's subscriber: it runs under the timeline's
// lock, so rows arrive in print order, and it never blocks.
func (s *Server) publishRow(r timeline.Row) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Kind == timeline.KindStep {
		s.step = &r
	}
	s.recent = append(s.recent, r.Text)
	if len(s.recent) > RecentRows {
		s.recent = s.recent[len(s.recent)-RecentRows:]
	}
	s.broadcast(s.model.row(r))
}

// broadcast sends msg to every page; one that has fallen too far behind is
// dropped. The caller holds mu.
func (s *Server) broadcast(msg Message) {
	for c := range s.clients {
		select {
		case c <- msg:
		default:
			delete(s.clients, c)
			close(c)
		}
	}
}

// Snapshot is the first message a page gets: the Config, every live token,
// the state and the recent rows, as of message Seq.
type Snapshot struct {
	Seq    int      `json:"seq"`
	Config Config   `json:"config"`
	Tokens []Token  `json:"tokens"`
	State  State    `json:"state"`
	Recent []string `json:"recent"`
	// Step is the last step row printed, if any: the page's heading.
	Step *timeline.Row `json:"step,omitempty"`
}

func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	c := make(chan Message, clientBuffer)
	s.mu.Lock()
	snap := Snapshot{Seq: s.model.seq, Config: s.cfg, Tokens: s.model.snapshot(), State: s.model.state(), Recent: append([]string(nil), s.recent...), Step: s.step}
	s.clients[c] = struct{}{}
	s.mu.Unlock()
	defer s.drop(c)

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	if err := writeEvent(w, "snapshot", snap); err != nil {
		return
	}
	flusher.Flush()
	for {
		select {
		case msg, ok := <-c:
			if !ok {
				return // fell behind: the browser reconnects
			}
			if err := writeEvent(w, "message", msg); err != nil {
				return
			}
			flusher.Flush()
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

func (s *Server) drop(c chan Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.clients[c]; ok {
		delete(s.clients, c)
		close(c)
	}
}

func writeEvent(w http.ResponseWriter, event string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	return err
}

// serveAction runs a button's action and answers what it said, in both
// languages, as JSON ({"en": ..., "zh": ...}): 200 when it acted, 409 when
// it refused. It wants the header the page sends, which a form on another
// site cannot: a page elsewhere cannot press the buttons through the
// learner's browser.
func (s *Server) serveAction(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Webview") != "1" {
		http.Error(w, "missing X-Webview header", http.StatusForbidden)
		return
	}
	s.mu.Lock()
	a := s.actions[r.PathValue("id")]
	s.mu.Unlock()
	if a == nil {
		http.Error(w, fmt.Sprintf("no action %q", r.PathValue("id")), http.StatusNotFound)
		return
	}
	s.acting.Lock()
	defer s.acting.Unlock()
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	answer, err := a(ctx)
	status := http.StatusOK
	if err != nil {
		answer, status = lang.TextOf(err), http.StatusConflict
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(answer)
}

// Close stops the server: it ends every stream, stops listening and stops
// reading the timeline.
func (s *Server) Close() error {
	s.unsub()
	close(s.done)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.http.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
