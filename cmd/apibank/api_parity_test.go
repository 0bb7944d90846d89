package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/api"
	"github.com/apibank-playground/apibank/dataset"
)

// TestAPIParity scores every oracle prediction four ways: the HTTP API (api over the
// server's wazero pool, on loopback), the CLI under wazero on its first run on the folder and on
// the next (which takes the folder's memo from the first: see dataset/memo), and the CLI --native.
// The verdict lines must be byte-identical, and the API's report, indented, the CLI's --json.
func TestAPIParity(t *testing.T) {
	shared := sharedDir(t)
	wasm := wasmPath(t)
	oraclePath := filepath.Join(shared, "oracle", "verdicts.jsonl")
	tmp := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache")) // no memo yet
	modes := []string{"wazero", "wazero with the memo", "native"}
	outs, reports := map[string]string{}, map[string]string{}
	var kept os.FileInfo // the first run's memo file
	for _, mode := range modes {
		out := filepath.Join(tmp, strings.ReplaceAll(mode, " ", "-")+".jsonl")
		args := []string{"score", "--data", shared, "--preds", oraclePath, "--state", "fresh", "--out", out, "--json", "--wasm", wasm}
		if mode == "native" {
			args = append(args, "--native")
		}
		report, _ := runCLI(t, args...)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs[mode], reports[mode] = string(b), report
		memos, _ := filepath.Glob(filepath.Join(tmp, "cache", "apibank-memo", "*.memo"))
		switch mode {
		case "wazero":
			if len(memos) != 1 {
				t.Fatalf("the first run under wazero left %d memos of the folder, want 1", len(memos))
			}
			if kept, err = os.Stat(memos[0]); err != nil {
				t.Fatal(err)
			}
		case "wazero with the memo":
			// A run that took the memo and learned nothing leaves the file as it was; one that ignored
			// it would have written a new one in its place.
			if now, err := os.Stat(memos[0]); err != nil || len(memos) != 1 || !os.SameFile(kept, now) {
				t.Errorf("the second run did not take the memo as it was (%d memos, %v)", len(memos), err)
			}
		}
	}

	base := startAPI(t, wasm)

	files, err := dataset.ReadDir(shared)
	if err != nil {
		t.Fatal(err)
	}
	req := api.ScoreRequest{Data: &api.Data{Name: filepath.Base(shared), Files: map[string]string{}}, State: "fresh"}
	for p, c := range files {
		req.Data.Files[p] = string(c)
	}
	preds, err := os.ReadFile(oraclePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(preds)), "\n") {
		req.Predictions = append(req.Predictions, json.RawMessage(l))
	}
	body, _ := json.Marshal(req)
	hreq, _ := http.NewRequest("POST", base+"/api/v1/score", bytes.NewReader(body))
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", api.NDJSON)
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("API: %d %.500s", resp.StatusCode, answer)
	}
	lines := strings.SplitAfter(string(answer), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last line end
	verdicts, tail := strings.Join(lines[:len(lines)-1], ""), lines[len(lines)-1]
	var last struct {
		Report json.RawMessage `json:"report"`
	}
	if err := json.Unmarshal([]byte(tail), &last); err != nil {
		t.Fatalf("the last NDJSON line is not the report: %v", err)
	}
	var report bytes.Buffer
	if err := json.Indent(&report, last.Report, "", "  "); err != nil {
		t.Fatal(err)
	}
	report.WriteByte('\n')
	n := strings.Count(outs["wazero"], "\n")
	for _, mode := range modes {
		if verdicts != outs[mode] {
			t.Errorf("API verdict lines differ from the CLI's (%s): %d vs %d bytes", mode, len(verdicts), len(outs[mode]))
		}
		if report.String() != reports[mode] {
			t.Errorf("API report differs from the CLI's --json (%s)", mode)
		}
	}
	if n != 4311 {
		t.Errorf("%d verdict lines, the oracle has 4,311 predictions", n)
	}
	t.Logf("API == CLI under wazero, without and with the memo == CLI --native on %d oracle lines (%d bytes)", n, len(verdicts))
}
