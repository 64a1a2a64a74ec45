package faultproxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// stream is one watch in flight through the proxy: the faults Inject
// broadcasts reach it on cmds.
type stream struct {
	cmds chan Kind
}

// goneEvent is what the apiserver sends when a watch's resourceVersion has
// been compacted away (storage's errors.NewResourceExpired, through
// watch's Error event): the reflector must list again.
const goneEvent = `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: injected by faultproxy","reason":"Expired","code":410}}`

// stream relays a watch event by event, so that a fault can land between
// two events: the connection aborted, a 410 ERROR event, a pause, an event
// that does not decode, or one of another kind.
func (p *Proxy) stream(w http.ResponseWriter, r *http.Request, resp *http.Response, res string) {
	flusher, _ := w.(http.Flusher)
	jsonBody := isJSON(resp.Header.Get("Content-Type"))
	copyHeader(w.Header(), resp.Header)
	w.WriteHeader(resp.StatusCode)
	if flusher != nil {
		flusher.Flush()
	}

	s := &stream{cmds: make(chan Kind, 4)}
	p.mu.Lock()
	p.streams[s] = struct{}{}
	p.mu.Unlock()

	events := make(chan []byte)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	var reader sync.WaitGroup
	reader.Go(func() { readErr <- readEvents(resp.Body, jsonBody, events, done) })
	// However the relay ends (a panic that aborts the connection included),
	// the reader is stopped and waited for: closing the body unblocks it.
	defer func() {
		p.mu.Lock()
		delete(p.streams, s)
		p.mu.Unlock()
		close(done)
		resp.Body.Close()
		reader.Wait()
	}()

	write := func(b []byte) bool {
		if _, err := w.Write(b); err != nil {
			return false
		}
		if jsonBody {
			w.Write([]byte("\n"))
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	sent := 0
	for {
		select {
		case <-r.Context().Done():
			return
		case <-p.closing:
			return
		case k := <-s.cmds:
			switch k {
			case CutWatch:
				p.hit(Fault{Kind: CutWatch, Resource: res, Detail: fmt.Sprintf("connection aborted after %d events", sent)})
				// net/http closes the connection without ending the chunked
				// body: the client reads an unexpected EOF, as when a
				// load balancer or a node drops it.
				panic(http.ErrAbortHandler)
			case Gone:
				if !jsonBody {
					p.hit(Fault{Kind: Gone, Resource: res, Detail: "skipped: protobuf", Skipped: true})
					continue
				}
				p.hit(Fault{Kind: Gone, Resource: res, Detail: fmt.Sprintf("ERROR 410 Expired after %d events, then the end", sent)})
				write([]byte(goneEvent))
				return
			case Stall:
				p.hit(Fault{Kind: Stall, Resource: res, Detail: fmt.Sprintf("events held for %s", p.opts.StallFor)})
				if !p.sleep(r.Context(), p.opts.StallFor) {
					return
				}
			}
		case ev, ok := <-events:
			if !ok {
				if err := <-readErr; err != nil && err != io.EOF {
					// The apiserver went away mid-stream (a restart): the
					// client must see the same abrupt end.
					panic(http.ErrAbortHandler)
				}
				return
			}
			sent++
			if !jsonBody {
				write(ev)
				continue
			}
			p.noteServerError(ev, res)
			for _, out := range p.editEvent(ev, res) {
				if !write(out) {
					return
				}
			}
		}
	}
}

// readEvents reads a watch body: one JSON value at a time (the apiserver
// writes each event as one), or raw chunks of a protobuf stream, which
// the proxy does not look into. It returns what ended the body.
func readEvents(body io.Reader, jsonBody bool, events chan<- []byte, done <-chan struct{}) error {
	defer close(events)
	if jsonBody {
		dec := json.NewDecoder(body)
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			select {
			case events <- raw:
			case <-done:
				return nil
			}
		}
	}
	for {
		buf := make([]byte, 32<<10)
		n, err := body.Read(buf)
		if n > 0 {
			select {
			case events <- buf[:n]:
			case <-done:
				return nil
			}
		}
		if err != nil {
			return err
		}
	}
}

// noteServerError counts an ERROR event of the apiserver's own.
func (p *Proxy) noteServerError(ev []byte, res string) {
	if !bytes.HasPrefix(ev, []byte(`{"type":"ERROR"`)) {
		return
	}
	var e struct {
		Object struct {
			Code   int    `json:"code"`
			Reason string `json:"reason"`
		} `json:"object"`
	}
	if json.Unmarshal(ev, &e) != nil {
		return
	}
	p.mu.Lock()
	p.stats.ServerErrors[e.Object.Code]++
	p.mu.Unlock()
	if p.opts.OnServerError != nil {
		p.opts.OnServerError(res, e.Object.Code, e.Object.Reason)
	}
}
