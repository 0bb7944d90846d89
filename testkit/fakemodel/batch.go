package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
)

// AnswerBatch answers a batch input file (OpenAI's Batch API format: one {"custom_id","method",
// "url","body"} line a request) as a batch provider does: each line's body goes to the server as
// a request of its own, answered and recorded like any other, and each answer becomes an output
// line {"id","custom_id","response":{"status_code","request_id","body"},"error":null}. The output
// lines come in the reverse order of the input's, since a provider's order is any. A line that is
// not a request is an error naming it.
func (s *Server) AnswerBatch(input []byte) ([]byte, error) {
	s.mu.Lock()
	key := s.script.Key
	s.mu.Unlock()
	var out [][]byte
	n := 0
	for line := range bytes.Lines(input) {
		n++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var in struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}
		if err := json.Unmarshal(line, &in); err != nil || in.CustomID == "" || in.URL == "" {
			return nil, fmt.Errorf("fakemodel: batch input line %d is not a request (%v)", n, err)
		}
		req := httptest.NewRequest(in.Method, in.URL, bytes.NewReader(in.Body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		body := bytes.TrimSpace(rec.Body.Bytes())
		if !json.Valid(body) {
			body, _ = json.Marshal(string(body))
		}
		id, _ := json.Marshal(in.CustomID)
		out = append(out, fmt.Appendf(nil, `{"id":"batch_req_%d","custom_id":%s,"response":{"status_code":%d,"request_id":"req_%d","body":%s},"error":null}`+"\n",
			n, id, rec.Code, n, body))
	}
	slices.Reverse(out)
	return bytes.Join(out, nil), nil
}
