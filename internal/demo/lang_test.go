package demo_test

import (
	"strings"
	"testing"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/lang"
)

// setLocale sets the three variables lang.FromEnv reads.
func setLocale(t *testing.T, all, messages, lng string) {
	t.Setenv("LC_ALL", all)
	t.Setenv("LC_MESSAGES", messages)
	t.Setenv("LANG", lng)
}

// TestTheDemoSpeaksTheLearnersLanguage: --lang chooses, else the locale;
// the banner, the help and an error the learner caused (an unreachable
// cluster) are said in it.
func TestTheDemoSpeaksTheLearnersLanguage(t *testing.T) {
	unreachable := kubeconfigFor(t, "https://127.0.0.1:1")
	for _, tc := range []struct {
		name        string
		locale      [3]string
		args        []string
		want, wantE string
		not         string
	}{
		{"--lang=zh", [3]string{"C", "", ""}, []string{"--lang=zh"}, "第 1 阶段：测试", "错误：连不上 https://127.0.0.1:1 上的集群", "Stage 01"},
		{"--lang zh", [3]string{"", "", ""}, []string{"--lang", "zh"}, "集群：一个真实集群", "错误：连不上", "Cluster:"},
		{"LANG=zh_CN.UTF-8", [3]string{"", "", "zh_CN.UTF-8"}, nil, "第 1 阶段：测试", "错误：连不上", "Stage 01"},
		{"LC_MESSAGES over LANG", [3]string{"", "zh_TW.UTF-8", "en_US.UTF-8"}, nil, "第 1 阶段：测试", "错误：", "Stage 01"},
		{"--lang=en over the locale", [3]string{"zh_CN.UTF-8", "", ""}, []string{"--lang=en"}, "Stage 01: test", "error: cannot reach the cluster", "阶段"},
		{"English otherwise", [3]string{"", "", "fr_FR.UTF-8"}, nil, "Stage 01: test", "error: cannot reach the cluster", "阶段"},
	} {
		setLocale(t, tc.locale[0], tc.locale[1], tc.locale[2])
		code, stdout, stderr := run(t, append(tc.args, "--kubeconfig", unreachable), mustNotRun(t))
		if code != 1 || !strings.Contains(stdout, tc.want) || !strings.Contains(stderr, tc.wantE) || strings.Contains(stdout+stderr, tc.not) {
			t.Errorf("%s: exit %d; want 1, %q on stdout, %q on stderr and no %q\nstdout:\n%s\nstderr:\n%s", tc.name, code, tc.want, tc.wantE, tc.not, stdout, stderr)
		}
	}
}

// TestHelpAndUsageErrorsInChinese: -h lists the flags in Chinese, --lang
// among them; a flag the demo does not have is refused with the flag
// package's own sentence, introduced in Chinese, then the Chinese help.
func TestHelpAndUsageErrorsInChinese(t *testing.T) {
	setLocale(t, "", "", "zh_CN.UTF-8")
	code, _, stderr := run(t, []string{"-h"}, mustNotRun(t))
	for _, want := range []string{"第 1 阶段 demo 的参数：", "-lang string", "demo 讲解用的语言：en 或 zh", "直到按下 Ctrl-C"} {
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("-h: exit %d, stderr lacks %q:\n%s", code, want, stderr)
		}
	}
	code, _, stderr = run(t, []string{"--no-such-flag"}, mustNotRun(t))
	if code != 2 || !strings.HasPrefix(stderr, "命令行有误：flag provided but not defined: -no-such-flag\n第 1 阶段 demo 的参数：") {
		t.Errorf("--no-such-flag: exit %d, stderr:\n%s", code, stderr)
	}
	// In English, the flag package's words exactly, as before --lang.
	code, _, stderr = run(t, []string{"--lang=en", "--no-such-flag"}, mustNotRun(t))
	if code != 2 || !strings.HasPrefix(stderr, "flag provided but not defined: -no-such-flag\nUsage of stage 01 demo:\n") {
		t.Errorf("--lang=en --no-such-flag: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestALanguageTheCourseDoesNotSpeakIsRefusedBeforeAnythingStarts: a bad
// --lang is a usage error, before a playground or a cluster, said in the
// locale's language.
func TestALanguageTheCourseDoesNotSpeakIsRefusedBeforeAnythingStarts(t *testing.T) {
	opts := demo.Options{Stage: 1, Title: lang.T("test", "测试")}
	for _, realCluster := range []bool{false, true} {
		demotest.Refuses(t, opts, []string{"--lang=fr"}, realCluster, neverRuns(t), "--lang=fr: the languages are en and zh")
	}
	setLocale(t, "", "", "zh_CN.UTF-8")
	code, stdout, stderr := run(t, []string{"--lang=klingon"}, neverRuns(t))
	if code != 2 || stderr != "错误：--lang=klingon：只支持 en 和 zh\n" || stdout != "" {
		t.Errorf("--lang=klingon under LANG=zh_CN.UTF-8: exit %d, stdout %q, stderr %q; want 2, nothing, and the error in Chinese", code, stdout, stderr)
	}
}

// TestLanguageOf: what a demo answers before Main (--break=help) is said
// in the language Run would narrate in.
func TestLanguageOf(t *testing.T) {
	setLocale(t, "", "", "zh_CN.UTF-8")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, lang.ZH},
		{[]string{"--lang=en", "--break=help"}, lang.EN},
		{[]string{"-lang", "en"}, lang.EN},
		{[]string{"--lang=fr"}, lang.ZH}, // refused by Run, in the locale's language
		{[]string{"--", "--lang=en"}, lang.ZH},
	} {
		if got := demo.LanguageOf(tc.args); got != tc.want {
			t.Errorf("LanguageOf(%q) under LANG=zh_CN.UTF-8 = %s, want %s", tc.args, got, tc.want)
		}
	}
	setLocale(t, "C", "", "")
	if got := demo.LanguageOf([]string{"--lang=zh"}); got != lang.ZH {
		t.Errorf("LanguageOf(--lang=zh) under LC_ALL=C = %s", got)
	}
}
