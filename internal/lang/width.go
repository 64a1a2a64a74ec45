package lang

import (
	"strings"
	"unicode"
)

// Width is how many terminal columns s takes: two for each wide character
// (Han, kana, Hangul, fullwidth forms and CJK punctuation such as "，" and
// "："), one for any other. Columns of Chinese text line up by Width, not
// by len or by the rune count fmt's widths use.
func Width(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r),
		unicode.Is(unicode.Hangul, r),
		r >= 0x3000 && r <= 0x303f, // CJK symbols and punctuation: 、。「」
		r >= 0xff01 && r <= 0xff60, // fullwidth forms: ，：（）
		r >= 0xffe0 && r <= 0xffe6:
		return 2
	}
	return 1
}

// Pad is s followed by spaces up to width columns (Width), or s itself
// when it is already as wide: fmt's %-*s for text that may be Chinese.
func Pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-Width(s)))
}

// HasHan reports whether s holds at least one Chinese character: what a
// Chinese narration has and an untranslated one has not.
func HasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// HasWide reports whether s holds a wide character (Width): Chinese, or
// the fullwidth punctuation Chinese is written with ("：", "。").
func HasWide(s string) bool {
	for _, r := range s {
		if runeWidth(r) == 2 {
			return true
		}
	}
	return false
}
