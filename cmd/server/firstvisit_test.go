package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestBootFirst(t *testing.T) {
	const boot = "window.x=1;"
	script := "<script>" + boot + "</script>"
	for _, c := range []struct {
		name, in, want string
		ok             bool
	}{
		{"go-app's head", `<head><meta charset="UTF-8"><title>t</title><link rel="stylesheet">` + script + `</head>`,
			`<head><meta charset="UTF-8">` + script + `<title>t</title><link rel="stylesheet"></head>`, true},
		{"already first", `<meta charset="UTF-8">` + script + `<p>`, `<meta charset="UTF-8">` + script + `<p>`, true},
		{"no script", `<meta charset="UTF-8"><p>`, `<meta charset="UTF-8"><p>`, false},
		{"another script", `<meta charset="UTF-8"><script>other</script>`, `<meta charset="UTF-8"><script>other</script>`, false},
		{"script twice", `<meta charset="UTF-8">` + script + script, `<meta charset="UTF-8">` + script + script, false},
		{"no charset", `<title>t</title>` + script, `<title>t</title>` + script, false},
	} {
		got, ok := bootFirst([]byte(c.in), boot)
		if string(got) != c.want || ok != c.ok {
			t.Errorf("%s: bootFirst = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestLoaderTakesEarlyFetch(t *testing.T) {
	const head, tail = "async function fetchWithProgress(url, progess) {\n", "  let contentLength = 0;\n"
	for _, c := range []struct {
		name, in, want string
		ok             bool
	}{
		{"go-app's loader", head + loaderFetch + tail, head + earlyFetch + tail, true},
		{"no fetch line", head + tail, head + tail, false},
		{"fetched twice", head + loaderFetch + loaderFetch, head + loaderFetch + loaderFetch, false},
	} {
		got, ok := loaderTakesEarlyFetch(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: loaderTakesEarlyFetch = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if _, ok := loaderTakesEarlyFetch(string(goappLoader(t))); !ok {
		t.Fatalf("go-app's loader no longer fetches app.wasm with %q: the page would download it twice", loaderFetch)
	}
}

// TestStaticPagesBootFirst: the static export's pages start app.wasm's download first, as the
// server's do, and its loader takes that download.
func TestStaticPagesBootFirst(t *testing.T) {
	_, assets := testServer(t)
	dir := t.TempDir()
	if err := exportStatic(dir, NewHandler(assets), assets, io.Discard); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(pages) < 2 {
		t.Fatalf("the static site has %d pages", len(pages))
	}
	want := []byte(charsetMeta + "<script>" + bootScript(assets) + "</script>")
	for _, p := range pages {
		page, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(page, want) {
			t.Errorf("%s: the boot script does not follow the charset", filepath.Base(p))
		}
	}
	loader, err := os.ReadFile(filepath.Join(dir, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(loader, []byte(earlyFetch)) {
		t.Error("the static app.js does not take the boot script's download of app.wasm")
	}
}
