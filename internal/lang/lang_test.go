package lang

import "testing"

func TestFromEnvFollowsPOSIXPrecedence(t *testing.T) {
	for _, tc := range []struct {
		all, messages, lang string
		want                string
	}{
		{"", "", "", EN},
		{"", "", "zh_CN.UTF-8", ZH},
		{"", "", "en_US.UTF-8", EN},
		{"", "en_US.UTF-8", "zh_CN.UTF-8", EN}, // LC_MESSAGES over LANG
		{"zh_TW.UTF-8", "en_US.UTF-8", "", ZH}, // LC_ALL over both
		{"C", "", "zh_CN.UTF-8", EN},           // LC_ALL=C means C
		{"", "", "ZH_cn", ZH},
	} {
		t.Setenv("LC_ALL", tc.all)
		t.Setenv("LC_MESSAGES", tc.messages)
		t.Setenv("LANG", tc.lang)
		if got := FromEnv(); got != tc.want {
			t.Errorf("LC_ALL=%q LC_MESSAGES=%q LANG=%q: %s, want %s", tc.all, tc.messages, tc.lang, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "zh_CN.UTF-8")
	for in, want := range map[string]string{"": ZH, "en": EN, "ZH": ZH} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Parse("fr"); err == nil {
		t.Error("Parse(fr) accepted a language the course does not speak")
	}
}
