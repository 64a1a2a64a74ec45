// Package lang chooses the language a command talks to a person in:
// English or Chinese, from a --lang flag when given, else from the locale.
package lang

import (
	"fmt"
	"os"
	"strings"
)

// The languages the course speaks.
const (
	EN = "en"
	ZH = "zh"
)

// FromEnv is the locale's language: Chinese when the first of LC_ALL,
// LC_MESSAGES and LANG that is set (the order POSIX gives them) starts with
// "zh", English otherwise.
func FromEnv() string {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return ZH
			}
			return EN
		}
	}
	return EN
}

// Parse checks a --lang value: "en" or "zh"; "" means FromEnv.
func Parse(v string) (string, error) {
	switch strings.ToLower(v) {
	case "":
		return FromEnv(), nil
	case EN, ZH:
		return strings.ToLower(v), nil
	}
	return "", fmt.Errorf("--lang=%s: the languages are en and zh", v)
}
