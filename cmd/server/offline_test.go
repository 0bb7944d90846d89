package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestOfflineWorkerFindsPagesWhateverTheirQuery(t *testing.T) {
	tmpl, ok := offlineWorker()
	if !ok {
		t.Fatalf("go-app's service worker no longer has %q and %q: pages with a query would not load offline, or the worker would be active before its cache is filled", cacheLookup, cacheFill)
	}
	srv, _ := testServer(t)
	_, body := get(t, srv.URL+"/app-worker.js", nil)
	for _, c := range []struct {
		text []byte
		want bool
	}{
		{[]byte(pageLookup), true},
		{[]byte(cacheLookup + ";"), false},
		{[]byte(heldCacheFill), true},
		{[]byte(cacheFill), false},
	} {
		if got := bytes.Contains(body, c.text); got != c.want {
			t.Errorf("app-worker.js contains %q: %v, want %v", c.text, got, c.want)
		}
	}
	if len(tmpl) == 0 {
		t.Error("empty worker template")
	}
}

func TestWorkerAfterApp(t *testing.T) {
	const before, app = "var x;\n", "function goappInitWebAssembly() {}\n"
	for _, c := range []struct {
		name, in, want string
		ok             bool
	}{
		{"go-app's order", before + workerStart + "goappWatchForUpdate();\n" + appStart + app,
			before + "goappWatchForUpdate();\n" + laterWorker + app + engineSettled, true},
		{"no worker line", before + appStart, before + appStart, false},
		{"no app line", before + workerStart, before + workerStart, false},
		{"app started first", appStart + workerStart, appStart + workerStart, false},
		{"worker started twice", workerStart + workerStart + appStart, workerStart + workerStart + appStart, false},
	} {
		got, ok := workerAfterApp(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: workerAfterApp = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestLoaderStartsWorkerAfterApp: the served loader and the static site's register the service
// worker once the app runs, and still register it.
func TestLoaderStartsWorkerAfterApp(t *testing.T) {
	if _, ok := workerAfterApp(string(goappLoader(t))); !ok {
		t.Fatalf("go-app's loader no longer has %q before %q: the service worker would start before the app", workerStart, appStart)
	}
	srv, assets := testServer(t)
	_, served := get(t, srv.URL+"/app.js", nil)
	dir := t.TempDir()
	if err := exportStatic(dir, NewHandler(assets), assets, io.Discard); err != nil {
		t.Fatal(err)
	}
	static, err := os.ReadFile(filepath.Join(dir, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"served": served, "static": static} {
		if !bytes.Contains(body, []byte(laterWorker)) || bytes.Contains(body, []byte("\n"+workerStart)) {
			t.Errorf("%s app.js does not start the service worker after the app", name)
		}
		if !bytes.Contains(body, []byte("function engineSettled()")) {
			t.Errorf("%s app.js calls engineSettled but does not define it", name)
		}
		if !bytes.Contains(body, []byte("async function goappInitServiceWorker()")) {
			t.Errorf("%s app.js lost go-app's service worker registration", name)
		}
	}
}

// goappLoader is app.js as go-app's handler writes it.
func goappLoader(t *testing.T) []byte {
	t.Helper()
	_, assets := testServer(t)
	rec := httptest.NewRecorder()
	NewHandler(assets).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("go-app answered %d for /app.js", rec.Code)
	}
	return rec.Body.Bytes()
}
