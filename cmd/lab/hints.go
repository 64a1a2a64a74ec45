package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The hints live with the lab, not in the chapter: each marked function has
// a ladder of its own, from a nudge (which idea, which section of the
// chapter to reread), to the invariant and the edge case people miss, to the
// client-go function to read, to the steps. make lab-hint shows one rung at a
// time, so that reading the chapter never shows them and a learner climbs
// only as far as they need.
//
// A ladder file, as written (hints/labNN.LANG.md, decoded):
//
//	# DeltaFIFO.Pop
//
//	## What Pop promises process
//
//	text...
//
//	## ...
//
// In the tree each file is kept encoded (gzip, then base64) with a header
// that says so: the last rung of every ladder is close to the solution, and
// a learner's grep -rn of the tree must not print it. go run ./cmd/lab
// hints-unpack DIR decodes them all to edit; hints-pack DIR encodes them back.

//go:embed hints/*.b64
var hintFiles embed.FS

// hint is one rung of a ladder.
type hint struct {
	Title string
	Body  string
}

// ladder is one function's hints, in order.
type ladder struct {
	Func  string
	Hints []hint
}

// hintFileName is lab n's hint file in lang, decoded.
func hintFileName(n int, lang string) string { return fmt.Sprintf("lab%02d.%s.md", n, lang) }

// laddersOf reads lab n's ladders in lang from the embedded files.
func laddersOf(n int, lang string) ([]ladder, error) {
	enc, err := hintFiles.ReadFile("hints/" + hintFileName(n, lang) + ".b64")
	if err != nil {
		return nil, fmt.Errorf("lab %d has no hints in %s", n, lang)
	}
	text, err := decodeHints(enc)
	if err != nil {
		return nil, fmt.Errorf("hints/%s.b64: %w", hintFileName(n, lang), err)
	}
	return parseLadders(text)
}

// parseLadders reads "# Func" and "## Title" headings, outside code fences.
func parseLadders(text string) ([]ladder, error) {
	var out []ladder
	var body []string
	flush := func() {
		if len(out) == 0 {
			return
		}
		l := &out[len(out)-1]
		if len(l.Hints) > 0 {
			l.Hints[len(l.Hints)-1].Body = strings.TrimSpace(strings.Join(body, "\n"))
		}
		body = nil
	}
	fenced := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		switch {
		case !fenced && strings.HasPrefix(line, "# "):
			flush()
			out = append(out, ladder{Func: strings.TrimSpace(line[2:])})
		case !fenced && strings.HasPrefix(line, "## "):
			flush()
			if len(out) == 0 {
				return nil, fmt.Errorf("hint %q comes before any function's heading", line)
			}
			l := &out[len(out)-1]
			l.Hints = append(l.Hints, hint{Title: strings.TrimSpace(line[3:])})
		default:
			body = append(body, line)
		}
	}
	flush()
	for _, l := range out {
		if len(l.Hints) == 0 {
			return nil, fmt.Errorf("%s has a heading and no hints", l.Func)
		}
	}
	return out, nil
}

// The encoded file's header: what it is and how to read it.
const hintHeader = "# Lab %02d's hints (%s): gzip, then base64, so that a grep of the tree does not print\n" +
	"# them while you write the lab. make lab-hint %d shows them one at a time; to edit them,\n" +
	"# go run ./cmd/lab hints-unpack DIR, edit DIR/%s, then go run ./cmd/lab hints-pack DIR.\n"

func encodeHints(n int, lang, text string) []byte {
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	io.WriteString(zw, text)
	zw.Close()
	enc := base64.StdEncoding.EncodeToString(z.Bytes())
	var b strings.Builder
	fmt.Fprintf(&b, hintHeader, n, lang, n, hintFileName(n, lang))
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\n")
	return []byte(b.String())
}

func decodeHints(enc []byte) (string, error) {
	var data strings.Builder
	for _, line := range strings.Split(string(enc), "\n") {
		if !strings.HasPrefix(line, "#") {
			data.WriteString(strings.TrimSpace(line))
		}
	}
	z, err := base64.StdEncoding.DecodeString(data.String())
	if err != nil {
		return "", err
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(zr)
	return string(b), err
}

// hintsDir is where the encoded files are in the repository.
func hintsDir(root string) string { return filepath.Join(root, "cmd", "lab", "hints") }

// unpackHints writes every lab's ladders, decoded, to dir.
func unpackHints(root, dir string) error {
	encoded, err := filepath.Glob(filepath.Join(hintsDir(root), "*.md.b64"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range encoded {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		text, err := decodeHints(b)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".b64")), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// packHints encodes every labNN.LANG.md in dir into the repository.
func packHints(root, dir string) error {
	plain, err := filepath.Glob(filepath.Join(dir, "lab[0-9][0-9].*.md"))
	if err != nil {
		return err
	}
	if len(plain) == 0 {
		return fmt.Errorf("no labNN.LANG.md in %s", dir)
	}
	for _, f := range plain {
		var n int
		var lang string
		if _, err := fmt.Sscanf(strings.Replace(filepath.Base(f), ".", " ", 2), "lab%d %s md", &n, &lang); err != nil {
			return fmt.Errorf("%s: not labNN.LANG.md", f)
		}
		text, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if _, err := parseLadders(string(text)); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		out := filepath.Join(hintsDir(root), filepath.Base(f)+".b64")
		if err := os.WriteFile(out, encodeHints(n, lang, string(text)), 0o644); err != nil {
			return err
		}
	}
	return nil
}
