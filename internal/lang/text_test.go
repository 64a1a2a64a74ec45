package lang

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
)

func TestVerbs(t *testing.T) {
	for s, want := range map[string][]string{
		"%d pods in %s":             {"%d", "%s"},
		"Stage %02d: %-40s rv=%q":   {"%02d", "%-40s", "%q"},
		"100%% done, %.1fs":         {"%.1fs"[:4]},
		"%[2]s 还有 %[1]d 个值":         {"%[2]s", "%[1]d"},
		"no verbs at all":           nil,
		"%w wrapped, %v and %+v ok": {"%w", "%v", "%+v"},
	} {
		if got := Verbs(s); !slices.Equal(got, want) {
			t.Errorf("Verbs(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestTextInBothLanguages(t *testing.T) {
	stop := T("Stop the %s", "停掉 %s")
	if got := stop.Sprintf(ZH, "reflector"); got != "停掉 reflector" {
		t.Errorf("Sprintf(ZH) = %q", got)
	}
	if got := stop.Format("reflector"); got != T("Stop the reflector", "停掉 reflector") {
		t.Errorf("Format = %q", got)
	}
	// A Text argument is said in the language of the sentence around it.
	same := T("the same", "相同")
	if got := T("end with %s cache", "最后的缓存%s").Sprintf(ZH, same); got != "最后的缓存相同" {
		t.Errorf("a Text argument in Chinese: %q", got)
	}
	if got := T("two\nlines", "两\n行").Lines(ZH); !slices.Equal(got, []string{"两", "行"}) {
		t.Errorf("Lines(ZH) = %q", got)
	}
	if got := Verbatim("%s │ %s").In(ZH); got != "%s │ %s" {
		t.Errorf("Verbatim in Chinese = %q", got)
	}
}

func TestJoin(t *testing.T) {
	if got := Join([]string{"3", "1"}, T(", ", "、")); got != (Text{EN: "3, 1", ZH: "3、1"}) {
		t.Errorf("Join = %q", got)
	}
}

func TestCount(t *testing.T) {
	one, many := T("1 request", "1 个请求"), T("%d requests", "%d 个请求")
	for n, want := range map[int]Text{0: T("0 requests", "0 个请求"), 1: one, 3: T("3 requests", "3 个请求")} {
		if got := Count(n, one, many); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestErrorfInBothLanguages: the English side is the error's text and what
// it wraps; Message says it in the learner's language, an Error it wraps
// included.
func TestErrorfInBothLanguages(t *testing.T) {
	inner := Errorf(T("cannot reach %s", "连不上 %s"), "the cluster")
	err := Errorf(T("starting: %w", "启动失败：%w"), inner)
	if err.Error() != "starting: cannot reach the cluster" {
		t.Errorf("Error() = %q", err.Error())
	}
	if got := Message(err, ZH); got != "启动失败：连不上 the cluster" {
		t.Errorf("Message(ZH) = %q", got)
	}
	if !errors.Is(err, inner) {
		t.Error("the error does not wrap the inner one")
	}
	wrapped := Errorf(T("reading %s: %w", "读取 %s 失败：%w"), "x", fs.ErrNotExist)
	if !errors.Is(wrapped, fs.ErrNotExist) || Message(wrapped, ZH) != "读取 x 失败：file does not exist" {
		t.Errorf("wrapping a plain error: Is=%v, Message(ZH)=%q", errors.Is(wrapped, fs.ErrNotExist), Message(wrapped, ZH))
	}
	if got := Message(fmt.Errorf("plain"), ZH); got != "plain" {
		t.Errorf("Message of a plain error = %q", got)
	}
	if got := TextOf(inner); got != T("cannot reach the cluster", "连不上 the cluster") {
		t.Errorf("TextOf = %q", got)
	}
	if got := TextOf(fmt.Errorf("plain")); got != Verbatim("plain") {
		t.Errorf("TextOf of a plain error = %q", got)
	}
}

func TestWidthAndPad(t *testing.T) {
	for s, want := range map[string]int{"web-1": 5, "资源": 4, "DeltaFIFO.Pop：一个事件": 13 + 2 + 8, "…": 1, "(gap: 70)": 9} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
	if got := Pad("资源", 8) + "|"; got != "资源    |" {
		t.Errorf("Pad = %q", got)
	}
	if got := Pad("too wide", 3); got != "too wide" {
		t.Errorf("Pad of a wider text = %q", got)
	}
	if !HasHan("停掉 reflector") || HasHan("Stop：") || !HasWide("Stop：") || HasWide("Stop:") {
		t.Error("HasHan or HasWide is wrong")
	}
}
