package playground

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// Compact compacts etcd's history up to its current revision and returns that
// revision. Every resourceVersion below it is then gone: a watch or a continue
// token from before it gets 410 Gone (with the watch cache disabled; the watch
// cache keeps its own window of history and may still serve it).
//
// It uses etcd's JSON gateway, so the learner's module needs no etcd client,
// with the playground's client certificate, which etcd demands.
func (c *Cluster) Compact(ctx context.Context) (int64, error) {
	var status struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	if err := c.etcdPost(ctx, "/v3/maintenance/status", map[string]any{}, &status); err != nil {
		return 0, err
	}
	rev, err := strconv.ParseInt(status.Header.Revision, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("etcd status: revision %q: %w", status.Header.Revision, err)
	}
	req := map[string]any{"revision": strconv.FormatInt(rev, 10), "physical": true}
	if err := c.etcdPost(ctx, "/v3/kv/compaction", req, nil); err != nil {
		return 0, err
	}
	return rev, nil
}

func (c *Cluster) etcdPost(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.EtcdURL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return fmt.Errorf("etcd %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var msg bytes.Buffer
		msg.ReadFrom(resp.Body)
		return fmt.Errorf("etcd %s: %s: %s", path, resp.Status, msg.String())
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
