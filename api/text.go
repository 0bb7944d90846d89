package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/apibank-playground/apibank/internal/lines"
	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/run"
)

// RougeRequest is the JSON form of a rouge request's body; the other form is JSONL of
// {"ref", "hyp"}, the file `apibank rouge --pairs` reads.
type RougeRequest struct {
	Pairs []protocol.Pair `json:"pairs"`
}

// RougeAnswer is the JSON form of a rouge answer: per pair, in order, {"f": x} or {"error": why}
// (the lines `apibank rouge` prints; NDJSON gives them one a line).
type RougeAnswer struct {
	Results []json.RawMessage `json:"results"`
}

// rouge computes ROUGE-L F of pairs: POST /api/v1/rouge.
func (h *handler) rouge(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readBody(w, r)
	if !ok {
		return
	}
	var pairs []protocol.Pair
	// bad[i] is the answer of a line that is not a pair (JSONL only), in place of a result.
	var bad map[int]string
	if isJSON(r) {
		var req RougeRequest
		if line, err := decodeJSON(body, &req); err != nil {
			writeError(w, http.StatusBadRequest, CodeBadRequest, "the body is not a rouge request {\"pairs\": [{\"ref\", \"hyp\"}, ...]}: "+err.Error(), line)
			return
		}
		if len(req.Pairs) > h.limits.MaxLines {
			writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("%d pairs; the limit is %d a request", len(req.Pairs), h.limits.MaxLines), h.limits.MaxLines+1)
			return
		}
		pairs = req.Pairs
	} else {
		if line := overLimit(body, h.limits.MaxLines); line > 0 {
			writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("more than %d pairs; the limit is %d a request", h.limits.MaxLines, h.limits.MaxLines), line)
			return
		}
		pairs, bad = parsePairs(body)
	}
	h.work(w, r, true, func(ctx context.Context, s *session) error {
		res, err := call[[]protocol.Rouge](ctx, s, protocol.Request{Op: protocol.OpRouge, Pairs: pairs})
		if err != nil {
			return err
		}
		s.done()
		if len(res) != len(pairs) {
			return fmt.Errorf("the engine answered %d scores for %d pairs", len(res), len(pairs))
		}
		var lines []json.RawMessage
		next := 0
		for slot := 0; next < len(res) || bad[slot] != ""; slot++ {
			var b []byte
			if why, isBad := bad[slot]; isBad {
				b, _ = json.Marshal(map[string]string{"error": why})
			} else {
				if res[next].F != nil {
					b, _ = json.Marshal(map[string]float64{"f": *res[next].F})
				} else {
					b, _ = json.Marshal(map[string]string{"error": res[next].Error})
				}
				next++
			}
			lines = append(lines, b)
		}
		if wantsNDJSON(r) {
			w.Header().Set("Content-Type", NDJSON)
			w.Header().Set("Cache-Control", "no-store")
			out := newStream(w)
			for _, l := range lines {
				out.Write(l)
				out.Write([]byte("\n"))
			}
			out.Flush()
			return nil
		}
		if lines == nil {
			lines = []json.RawMessage{}
		}
		writeJSON(w, http.StatusOK, RougeAnswer{Results: lines})
		return nil
	})
}

// parsePairs reads JSONL of {"ref", "hyp"} as `apibank rouge` does: a line that is not such an
// object gets {"error": "line N: why"} in its place, and the rest are scored.
func parsePairs(body []byte) (pairs []protocol.Pair, bad map[int]string) {
	bad = map[int]string{}
	slot := 0
	for n, raw := range lines.All(body) {
		text := bytes.TrimSpace(raw)
		if len(text) == 0 {
			continue
		}
		var m map[string]any
		err := json.Unmarshal(text, &m)
		ref, ok1 := m["ref"].(string)
		hyp, ok2 := m["hyp"].(string)
		if err != nil || !ok1 || !ok2 {
			why := "want {\"ref\": text, \"hyp\": text}"
			if err != nil {
				why = "not a JSON object: " + err.Error()
			}
			bad[slot] = fmt.Sprintf("line %d: %s", n, why)
		} else {
			pairs = append(pairs, protocol.Pair{Ref: ref, Hyp: hyp})
		}
		slot++
	}
	return pairs, bad
}

// prompts writes every single-request sample's chat-completions request body as NDJSON, of the
// builtin data or of its variant seed names (as `apibank prompts --seed S`):
// GET /api/v1/prompts?level=&form=&model=&seed=.
func (h *handler) prompts(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	levels, err := levelsNamed(q["level"])
	if err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error(), 0)
		return
	}
	seed, err := seedParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error(), 0)
		return
	}
	cfg := run.Config{Form: q.Get("form"), Levels: levels}
	settings := model.Settings{Model: q.Get("model")}
	if err := cfg.Validate(); err != nil {
		writeError(w, http.StatusBadRequest, CodeBadRequest, err.Error(), 0)
		return
	}
	h.work(w, r, false, func(ctx context.Context, s *session) error {
		if seed != 0 {
			if _, err := call[protocol.Loaded](ctx, s, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed}); err != nil {
				return err
			}
		}
		text, err := run.Prompts(ctx, s.transport, cfg, settings)
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		s.done()
		w.Header().Set("Content-Type", NDJSON)
		w.Header().Set("Cache-Control", "no-store")
		out := newStream(w)
		out.Write(text)
		out.Flush()
		return nil
	})
}

// levelsNamed reads the levels a query names as the CLI reads its --level flags (run.LevelNamed: a
// level's folder name or its number, "1" or "level-1"), each once, in the order named; the first
// name that is none is an error naming the levels.
func levelsNamed(names []string) ([]string, error) {
	var out []string
	for _, name := range names {
		level, ok := run.LevelNamed(name)
		if !ok {
			return nil, run.UnknownLevel(name)
		}
		if !slices.Contains(out, level) {
			out = append(out, level)
		}
	}
	return out, nil
}
