// Package oracle builds engine requests from the reference data beside the repository
// (../shared/apibank): loading the original's folder and scoring its oracle predictions. Benchmarks of
// the engine (native) and of the module under wazero use the same requests, so their figures compare.
package oracle

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
)

// Requests returns, for the apibank folder dir, a load request of its files, a score request (fresh
// state) of every line of oracle/verdicts.jsonl, and the number of those lines. ok is false when the
// folder is absent.
func Requests(dir string) (load, score []byte, n int, ok bool, err error) {
	preds, err := os.ReadFile(filepath.Join(dir, "oracle", "verdicts.jsonl"))
	if err != nil {
		return nil, nil, 0, false, nil
	}
	files, err := dataset.ReadDir(dir)
	if err != nil {
		return nil, nil, 0, true, err
	}
	m := make(map[string]string, len(files))
	for p, c := range files {
		m[p] = string(c)
	}
	if load, err = protocol.Encode(protocol.Request{Op: protocol.OpLoad, Files: m}); err != nil {
		return nil, nil, 0, true, err
	}
	if score, err = protocol.Encode(protocol.Request{Op: protocol.OpScore, Preds: string(preds), State: protocol.StateFresh}); err != nil {
		return nil, nil, 0, true, err
	}
	return load, score, bytes.Count(preds, []byte("\n")), true, nil
}

// StreamChunk is the number of prediction lines a score_lines request of Stream carries.
const StreamChunk = 1024

// Stream returns the oracle predictions as a scoring stream, the way a host streams a file: a
// score_start request (fresh state), then score_lines requests with StreamChunk lines each as their
// raw body, for a session where score_start answers stream 1; and the number of lines. ok is false
// when the folder is absent.
func Stream(dir string) (start []byte, chunks [][]byte, n int, ok bool, err error) {
	preds, err := os.ReadFile(filepath.Join(dir, "oracle", "verdicts.jsonl"))
	if err != nil {
		return nil, nil, 0, false, nil
	}
	if start, err = protocol.Encode(protocol.Request{Op: protocol.OpScoreStart, State: protocol.StateFresh}); err != nil {
		return nil, nil, 0, true, err
	}
	lines := bytes.SplitAfter(preds, []byte("\n"))
	for i := 0; i < len(lines); i += StreamChunk {
		body := bytes.Join(lines[i:min(i+StreamChunk, len(lines))], nil)
		if len(body) == 0 {
			continue
		}
		req, err := protocol.Encode(protocol.Request{Op: protocol.OpScoreLines, Stream: 1, Body: body, Line: i + 1})
		if err != nil {
			return nil, nil, 0, true, err
		}
		chunks = append(chunks, req)
	}
	return start, chunks, bytes.Count(preds, []byte("\n")), true, nil
}
