// Package webviewtest helps tests of a demo's browser view: it reads the
// stream as the page does, presses buttons, and finds and starts Chromium
// for the tests that drive a real browser.
package webviewtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/webview"
)

// Stream is one connection to a page's /events, read in the background.
type Stream struct {
	Snapshot webview.Snapshot

	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	msgs    []webview.Message
	changed chan struct{}
	err     error
}

// Connect opens the stream of the page at url and waits for its snapshot.
func Connect(t *testing.T, url string) *Stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("GET %sevents: %v", url, err)
	}
	s := &Stream{cancel: cancel, done: make(chan struct{}), changed: make(chan struct{})}
	events := readEvents(resp.Body)
	first, ok := <-events
	if !ok || first.name != "snapshot" {
		cancel()
		t.Fatalf("the stream did not start with a snapshot: %+v", first)
	}
	if err := json.Unmarshal(first.data, &s.Snapshot); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.done)
		defer resp.Body.Close()
		for e := range events {
			var m webview.Message
			err := json.Unmarshal(e.data, &m)
			s.mu.Lock()
			if err != nil {
				s.err = err
			}
			s.msgs = append(s.msgs, m)
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
		}
	}()
	t.Cleanup(s.Close)
	return s
}

// Close ends the connection.
func (s *Stream) Close() {
	s.cancel()
	<-s.done
}

// Messages returns every message read so far.
func (s *Stream) Messages() []webview.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]webview.Message(nil), s.msgs...)
}

// WaitFor reads until a message matches, and returns it. It fails the test
// after 30 seconds, or if the stream ends first.
func (s *Stream) WaitFor(t *testing.T, what string, match func(webview.Message) bool) webview.Message {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for i := 0; ; {
		s.mu.Lock()
		msgs, changed, err := s.msgs[i:], s.changed, s.err
		s.mu.Unlock()
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		for _, m := range msgs {
			i++
			if match(m) {
				return m
			}
		}
		select {
		case <-changed:
		case <-s.done:
			t.Fatalf("the stream ended before %s", what)
		case <-deadline:
			t.Fatalf("waited 30s for %s", what)
		}
	}
}

type event struct {
	name string
	data []byte
}

// readEvents parses Server-Sent Events: "event:" and "data:" lines, a blank
// line after each event.
func readEvents(r io.Reader) <-chan event {
	out := make(chan event)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		var e event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				e.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				e.data = []byte(strings.TrimPrefix(line, "data: "))
			case line == "" && e.name != "":
				out <- e
				e = event{}
			}
		}
	}()
	return out
}

// Press presses a button as the page does, and returns the answer in
// English; it fails the test if the action failed.
func Press(t *testing.T, url, id string) string {
	t.Helper()
	return PressText(t, url, id).EN
}

// PressText is Press returning the answer in both languages, as the page
// gets it.
func PressText(t *testing.T, url, id string) lang.Text {
	t.Helper()
	answer, status, err := press(url, id)
	if err != nil || status != http.StatusOK {
		t.Fatalf("pressing %q: %d %q, %v", id, status, answer, err)
	}
	return answer
}

// press posts a press and reads its answer, which is JSON in both
// languages.
func press(url, id string) (lang.Text, int, error) {
	req, _ := http.NewRequest(http.MethodPost, url+"act/"+id, nil)
	req.Header.Set("X-Webview", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return lang.Text{}, 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var answer lang.Text
	if err := json.Unmarshal(b, &answer); err != nil {
		return lang.Text{}, resp.StatusCode, fmt.Errorf("the answer is not a text in both languages: %q: %w", b, err)
	}
	return answer, resp.StatusCode, nil
}

// Journeys follows every token through msgs and returns the lanes each
// visited, by token ID, with its key; tokens that existed before the first
// message start from the snapshot's path.
func Journeys(snap webview.Snapshot, msgs []webview.Message) map[string]Journey {
	j := map[string]Journey{}
	for _, tk := range snap.Tokens {
		j[tk.ID] = Journey{Key: tk.Key, Lanes: tk.Path}
	}
	for _, m := range msgs {
		for _, mv := range m.Moves {
			j[mv.ID] = Journey{Key: mv.Key, Lanes: mv.Path, Label: mv.Label}
		}
	}
	return j
}

// Journey is one token's lanes, in order.
type Journey struct {
	Key   string
	Label string
	Lanes []string
}

func (j Journey) String() string {
	return fmt.Sprintf("%s %q: %s", j.Key, j.Label, strings.Join(j.Lanes, " → "))
}

// CheckRows fails the test unless the rows the stream carried (the
// snapshot's recent rows, then every row message) are the terminal's output
// out, from the web view's first row on: all of it when the snapshot holds
// fewer than webview.RecentRows, a contiguous run of it otherwise (a page
// that connects late gets only the last rows). out may run past the stream:
// the demo goes on printing while the test reads.
func (s *Stream) CheckRows(t *testing.T, out string) {
	t.Helper()
	rows := strings.Join(s.Snapshot.Recent, "")
	for _, m := range s.Messages() {
		if m.Row != nil {
			rows += m.Row.Text
		}
	}
	start := strings.Index(out, "   Web view: ")
	if start < 0 {
		t.Errorf("the terminal's output has no web view row:\n%s", out)
		return
	}
	same := strings.HasPrefix(out[start:], rows)
	if len(s.Snapshot.Recent) >= webview.RecentRows {
		same = strings.Contains(out[start:], rows)
	}
	if !same {
		t.Errorf("the stream's rows are not the terminal's output from the web view's first row on:\nstream:\n%s\nterminal:\n%s", rows, out)
	}
}
