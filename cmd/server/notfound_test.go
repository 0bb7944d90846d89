package main

import (
	"bytes"
	"testing"
)

func TestUnknownPathIsAPageNotFound(t *testing.T) {
	srv, _ := testServer(t)
	for _, p := range []string{"/nope", "/dataset/extra", "/404"} {
		resp, body := get(t, srv.URL+p, nil)
		if resp.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", p, ct)
		}
		for _, want := range []string{`data-testid="not-found"`, "Page not found", `href="/dataset"`} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("%s: the page lacks %q", p, want)
			}
		}
	}
}
