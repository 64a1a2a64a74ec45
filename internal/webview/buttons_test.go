package webview_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// TestButtonsActOnlyWhileOpen: a demo's buttons refuse a press during its
// story and after Ctrl-C, and act between the two.
func TestButtonsActOnlyWhileOpen(t *testing.T) {
	var b webview.Buttons
	pressed := 0
	b.Add("create", "Create", "创建", "hint", "提示", func(context.Context) (lang.Text, error) { pressed++; return lang.T("created", "已创建"), nil })
	srv, err := b.Start("127.0.0.1:0", webview.Config{}, timeline.New(&strings.Builder{}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	st := webviewtest.Connect(t, srv.URL())
	if got := st.Snapshot.Config.Buttons; len(got) != 1 || got[0].ID != "create" || got[0].Label.Zh != "创建" {
		t.Errorf("the page's config lists the buttons %+v; want the one added", got)
	}
	refused := func(when string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL()+"act/create", nil)
		req.Header.Set("X-Webview", "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var said lang.Text
		json.NewDecoder(resp.Body).Decode(&said)
		if resp.StatusCode != http.StatusConflict || pressed != 0 {
			t.Errorf("%s: a press answered %s and called the action %d times; want 409 and none", when, resp.Status, pressed)
		}
		// The page shows the refusal in the language its toggle chose.
		if !strings.Contains(said.EN, "the buttons act only") || !lang.HasHan(said.ZH) {
			t.Errorf("%s: the refusal says %q; want it in English and in Chinese", when, said)
		}
	}
	refused("before Open")
	b.Open()
	if got := webviewtest.PressText(t, srv.URL(), "create"); got != lang.T("created", "已创建") || pressed != 1 {
		t.Errorf("once open: %q, action called %d times; want the action's answer in both languages", got, pressed)
	}
	b.Shut()
	pressed = 0
	refused("after Shut")
}
