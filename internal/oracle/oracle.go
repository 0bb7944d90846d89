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
	if score, err = protocol.Encode(protocol.Request{Op: protocol.OpScore, Preds: string(preds), State: "fresh"}); err != nil {
		return nil, nil, 0, true, err
	}
	return load, score, bytes.Count(preds, []byte("\n")), true, nil
}
