package docscheck

import (
	"bufio"
	"os"
	"regexp"
	"strings"
)

// chapter is what the checks read out of one markdown file.
type chapter struct {
	headings   []heading
	codeBlocks []codeBlock
	// spans are the inline `code` spans of the prose, outside code blocks.
	spans []span
	// links are the targets of [text](target) links in the prose.
	links []span
	// htmlAnchors are the ids of <a id="..."></a> in the prose: an anchor
	// where no heading can be, a table's row (versions.md's rows).
	htmlAnchors []span
}

type heading struct {
	level int
	text  string
	line  int
}

type codeBlock struct {
	info    string // the word after the opening fence: go, mermaid, text, ...
	content string
	line    int
}

type span struct {
	text string
	line int
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	htmlAnchor = regexp.MustCompile(`<a id="([^"]+)"></a>`)
)

func readChapter(path string) (*chapter, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c := &chapter{}
	var block *codeBlock
	var body strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if block == nil {
				block = &codeBlock{info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: n}
				body.Reset()
			} else {
				block.content = body.String()
				c.codeBlocks = append(c.codeBlocks, *block)
				block = nil
			}
			continue
		}
		if block != nil {
			body.WriteString(line)
			body.WriteByte('\n')
			continue
		}
		if level := headingLevel(line); level > 0 {
			c.headings = append(c.headings, heading{level: level, text: strings.TrimSpace(line[level:]), line: n})
		}
		for _, m := range inlineCode.FindAllStringSubmatch(line, -1) {
			c.spans = append(c.spans, span{text: m[1], line: n})
		}
		for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
			c.links = append(c.links, span{text: m[1], line: n})
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			c.htmlAnchors = append(c.htmlAnchors, span{text: m[1], line: n})
		}
	}
	return c, sc.Err()
}

func headingLevel(line string) int {
	level := 0
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level >= len(line) || line[level] != ' ' {
		return 0
	}
	return level
}
