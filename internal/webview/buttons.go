// Not a mirror of client-go: a demo's buttons and what each does, held
// shut while the demo tells its story.

package webview

import (
	"context"
	"sync/atomic"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// Buttons are a demo's buttons, in the order the page shows them, and the
// Action of each. They act only once Open is called: a demo opens them when
// its story is over, so that a press never interleaves with the story's
// steps. The zero value is ready to use.
type Buttons struct {
	list []button
	open atomic.Bool
}

type button struct {
	Button
	do Action
}

// Add appends a button, with its label and hint in both languages.
func (b *Buttons) Add(id, en, zh, hintEn, hintZh string, do Action) {
	b.list = append(b.list, button{Button{ID: id, Label: Label{En: en, Zh: zh}, Hint: Label{En: hintEn, Zh: hintZh}}, do})
}

// Open lets the buttons act; Shut holds them again.
func (b *Buttons) Open() { b.open.Store(true) }

// Shut holds the buttons: a press answers that the demo is busy.
func (b *Buttons) Shut() { b.open.Store(false) }

// Start is Start for cfg with these buttons after cfg's own, each handled.
func (b *Buttons) Start(addr string, cfg Config, tl *timeline.Timeline) (*Server, error) {
	for _, bt := range b.list {
		cfg.Buttons = append(cfg.Buttons, bt.Button)
	}
	srv, err := Start(addr, cfg, tl)
	if err != nil {
		return nil, err
	}
	for _, bt := range b.list {
		srv.Handle(bt.ID, b.guard(bt.do))
	}
	return srv, nil
}

// guard refuses a press while the buttons are shut.
func (b *Buttons) guard(do Action) Action {
	return func(ctx context.Context) (lang.Text, error) {
		if !b.open.Load() {
			return lang.Text{}, lang.Errorf(sayButtonsShut)
		}
		return do(ctx)
	}
}
