package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// latestMinor is the release the chapters teach (client-go v0.37.2): the
// last one read. Its v0.37.0 stands for it, as every v0.N.0 for its N.
const latestMinor = 37

// download fetches module@v0.N.0 for each N from lo to latestMinor with one
// go mod download, and returns each release's directory in the module cache.
// What is already in the cache is not fetched again.
func download(module string, lo int) (map[int]string, error) {
	args := []string{"mod", "download", "-json"}
	for m := lo; m <= latestMinor; m++ {
		args = append(args, fmt.Sprintf("%s@v0.%d.0", module, m))
	}
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, args...)
	// Outside any module, so that nothing is added to the repository's
	// go.mod or go.sum: these releases are read, never built.
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	dirs := map[int]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct{ Version, Dir, Error string }
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go mod download: %v\n%s", err, stderr.String())
		}
		if m.Error != "" {
			return nil, fmt.Errorf("go mod download %s@%s: %s", module, m.Version, m.Error)
		}
		var minor int
		if _, err := fmt.Sscanf(m.Version, "v0.%d.0", &minor); err != nil {
			return nil, fmt.Errorf("go mod download answered for %s@%s", module, m.Version)
		}
		dirs[minor] = m.Dir
	}
	if runErr != nil && len(dirs) == 0 {
		return nil, fmt.Errorf("go mod download: %v\n%s", runErr, stderr.String())
	}
	for m := lo; m <= latestMinor; m++ {
		if dirs[m] == "" {
			return nil, fmt.Errorf("go mod download gave no directory for %s@v0.%d.0", module, m)
		}
	}
	return dirs, nil
}
