package main

import (
	"bytes"
	"testing"
)

func TestOfflineWorkerFindsPagesWhateverTheirQuery(t *testing.T) {
	tmpl, ok := offlineWorker()
	if !ok {
		t.Fatalf("go-app's service worker no longer has %q: pages with a query would not load offline", cacheLookup)
	}
	srv, _ := testServer(t)
	_, body := get(t, srv.URL+"/app-worker.js", nil)
	for _, c := range []struct {
		text []byte
		want bool
	}{
		{[]byte(pageLookup), true},
		{[]byte(cacheLookup + ";"), false},
	} {
		if got := bytes.Contains(body, c.text); got != c.want {
			t.Errorf("app-worker.js contains %q: %v, want %v", c.text, got, c.want)
		}
	}
	if len(tmpl) == 0 {
		t.Error("empty worker template")
	}
}
