package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// encodeLikeEngine encodes v with encoding/json as the engine's score answers are written (no HTML
// escaping).
func encodeLikeEngine(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// roundTrip sends req, decodes the answer strictly as T (unknown members are an error), and checks
// that encoding the typed value again gives the engine's exact bytes: no member is lost or renamed.
func roundTrip[T any](t *testing.T, s *Session, req protocol.Request) T {
	t.Helper()
	var resp []byte
	recorded := func(ctx context.Context, req []byte) ([]byte, error) {
		resp = s.Handle(req)
		return resp, nil
	}
	got, err := protocol.Call[T](context.Background(), recorded, req)
	if err != nil {
		t.Fatalf("%s: %v", req.Op, err)
	}
	raw, err := protocol.Result(resp)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Compact(&want, raw); err != nil {
		t.Fatal(err)
	}
	// The engine writes score answers with its own encoder (no HTML escaping) and the others with
	// encoding/json's defaults.
	again, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if _, fast := any(got).(protocol.Batch); fast {
		again = encodeLikeEngine(t, got)
	}
	if !bytes.Equal(again, want.Bytes()) {
		t.Fatalf("%s: the typed answer re-encodes differently: %s", req.Op, firstDiff(again, want.Bytes()))
	}
	return got
}

// TestEveryAnswerDecodesStrictly sends every op and decodes its answer as the protocol's type with
// unknown members disallowed, then compares the re-encoded value with the engine's bytes.
func TestEveryAnswerDecodesStrictly(t *testing.T) {
	s := New()
	covered := map[protocol.Op]bool{}
	op := func(o protocol.Op) protocol.Op { covered[o] = true; return o }
	zero, one := 0, 1

	roundTrip[protocol.Hello](t, s, protocol.Request{Op: op(protocol.OpHello)})
	roundTrip[protocol.Catalog](t, s, protocol.Request{Op: op(protocol.OpCatalog), Catalog: "lv3_apis"})
	roundTrip[protocol.Catalog](t, s, protocol.Request{Op: protocol.OpCatalog, Catalog: "apis", Form: "native"})
	roundTrip[protocol.Stats](t, s, protocol.Request{Op: op(protocol.OpStats)})
	ds := roundTrip[[]protocol.DialogueSummary](t, s, protocol.Request{Op: op(protocol.OpDialogues)})
	var l1, special, scene protocol.DialogueSummary
	for _, d := range ds {
		switch {
		case d.Level == "level-1-given-desc" && d.Special == "" && l1.File == "":
			l1 = d
		case d.Special != "" && special.File == "":
			special = d
		case d.Level == "level-3" && scene.File == "":
			scene = d
		}
	}
	if l1.File == "" || special.File == "" || scene.File == "" {
		t.Fatalf("builtin data lacks a level-1 dialogue, a special case or a scene: %+v %+v %+v", l1, special, scene)
	}
	d := roundTrip[protocol.Dialogue](t, s, protocol.Request{Op: op(protocol.OpDialogue), Level: l1.Level, File: l1.File})
	roundTrip[protocol.Dialogue](t, s, protocol.Request{Op: protocol.OpDialogue, Level: special.Level, File: special.File})
	samples := roundTrip[[]protocol.SampleView](t, s, protocol.Request{Op: op(protocol.OpSamples), Level: l1.Level, File: l1.File})
	roundTrip[protocol.Prompt](t, s, protocol.Request{Op: op(protocol.OpPrompt), Level: l1.Level, File: l1.File, Sample: &zero})
	roundTrip[protocol.Prompt](t, s, protocol.Request{Op: protocol.OpPrompt, Level: l1.Level, File: l1.File, Sample: &one})
	roundTrip[protocol.CallResult](t, s, protocol.Request{Op: op(protocol.OpCall), Call: json.RawMessage(`"[Calculator(formula='(1+2)*3')]"`)})
	roundTrip[protocol.CallResult](t, s, protocol.Request{Op: protocol.OpCall, Call: json.RawMessage(`{"name":"QueryStock","arguments":{"stock_code":"NOPE"}}`)})
	roundTrip[protocol.World](t, s, protocol.Request{Op: op(protocol.OpWorld), Databases: []string{"Alarm"}})
	roundTrip[protocol.Reset](t, s, protocol.Request{Op: op(protocol.OpReset)})

	var preds bytes.Buffer
	for _, sm := range samples {
		line, _ := json.Marshal(map[string]any{"level": sm.Level, "file": sm.File, "id": sm.ID, "pred": "[Calculator(formula='1+1')] or a reply"})
		preds.Write(line)
		preds.WriteByte('\n')
	}
	preds.WriteString("{not json\n")
	b := roundTrip[protocol.Batch](t, s, protocol.Request{Op: op(protocol.OpScore), Preds: preds.String(), Gold: true})
	if len(b.Results) != len(samples) || len(b.Errors) != 1 {
		t.Fatalf("score: %d verdicts and %d errors for %d samples and one bad line", len(b.Results), len(b.Errors), len(samples))
	}
	checkStream(t, s, op, preds.String(), b)
	roundTrip[protocol.Replay](t, s, protocol.Request{Op: op(protocol.OpReplay)})
	checkRougeLines(t, s, op)
	roundTrip[[]protocol.Rouge](t, s, protocol.Request{Op: op(protocol.OpRouge), Pairs: []protocol.Pair{{Ref: "the cat sat", Hyp: "the cat"}, {Ref: "x", Hyp: ""}}})
	roundTrip[protocol.Validation](t, s, protocol.Request{Op: op(protocol.OpValidate)})
	draft := `{"role":"User","text":"What is 2+2?"}
{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":null}
{"role":"AI","text":"4."}`
	roundTrip[protocol.Filled](t, s, protocol.Request{Op: op(protocol.OpFill), Files: map[string]string{"level-1-given-desc/calc.jsonl": draft}})
	roundTrip[protocol.WorldFiles](t, s, protocol.Request{Op: op(protocol.OpWorldFiles)})
	roundTrip[protocol.SynthCheck](t, s, protocol.Request{Op: op(protocol.OpSynthCheck), Style: protocol.StyleSimple, Tools: []string{"Calculator"}, Seen: []string{"request:x"},
		Candidate: `{"request": "What is 2 plus 2?", "steps": [[{"name": "Calculator", "arguments": {"formula": "2+2"}}]], "reply": "4."}`})

	started := roundTrip[protocol.EpisodeStarted](t, s, protocol.Request{Op: op(protocol.OpEpisodeStart), File: scene.File})
	roundTrip[protocol.EpisodeCall](t, s, protocol.Request{Op: op(protocol.OpEpisodeStep), Episode: started.Episode, Call: json.RawMessage(`"[Calculator(formula='2*3')]"`)})
	roundTrip[[]protocol.EpisodeCall](t, s, protocol.Request{Op: op(protocol.OpEpisodeCalls), Episode: started.Episode, Call: json.RawMessage(`"[Calculator(formula='2*3'), Calculator(formula='1+1')]"`)})
	roundTrip[protocol.Outcome](t, s, protocol.Request{Op: op(protocol.OpEpisodeFinish), Episode: started.Episode, Reply: "Six, and two."})

	if v := roundTrip[protocol.Variant](t, s, protocol.Request{Op: op(protocol.OpVariant), Seed: 5}); v.Seed != 5 || v.Digest == "" {
		t.Errorf("variant op answered %+v", v)
	}

	// load last: it replaces the data the requests above used; restart brings the builtin back.
	roundTrip[protocol.Loaded](t, s, protocol.Request{Op: op(protocol.OpLoad), Name: "tiny", Files: map[string]string{"level-1-given-desc/calc.jsonl": draft, "level-1-given-desc/bad.jsonl": "{oops"}})
	roundTrip[protocol.Memo](t, s, protocol.Request{Op: op(protocol.OpMemo)})
	tiny := map[string]string{"level-1-given-desc/calc.jsonl": strings.Replace(draft, `"result":null`, `"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}`, 1)}
	roundTrip[protocol.Loaded](t, s, protocol.Request{Op: op(protocol.OpLoad), Name: "tiny", Files: tiny})
	memo := roundTrip[protocol.Memo](t, s, protocol.Request{Op: op(protocol.OpMemo)})
	if l := roundTrip[protocol.Loaded](t, s, protocol.Request{Op: op(protocol.OpLoad), Name: "tiny", Files: tiny, Memo: memo.Memo}); !l.Memo {
		t.Errorf("load did not take the memo of its own files (%q)", memo.Memo)
	}
	roundTrip[protocol.Hello](t, s, protocol.Request{Op: op(protocol.OpRestart)})

	for _, o := range protocol.Ops {
		if !covered[o] {
			t.Errorf("op %s has no round-trip check", o)
		}
	}
	if len(d.Turns) == 0 {
		t.Fatal("a dialogue without turns")
	}
}

// roundTripLines sends a request answered in the lines form, decodes the envelope strictly as T,
// checks it re-encodes to the engine's bytes, and returns it with the JSONL that follows.
func roundTripLines[T any](t *testing.T, s *Session, req protocol.Request) (T, []byte) {
	t.Helper()
	var resp []byte
	recorded := func(ctx context.Context, req []byte) ([]byte, error) {
		resp = s.Handle(req)
		return resp, nil
	}
	got, body, err := protocol.CallLines[T](context.Background(), recorded, req)
	if err != nil {
		t.Fatalf("%s: %v", req.Op, err)
	}
	head := resp[:bytes.IndexByte(resp, '\n')]
	raw, err := protocol.Result(head)
	if err != nil {
		t.Fatal(err)
	}
	if again := encodeLikeEngine(t, got); !bytes.Equal(again, raw) {
		t.Fatalf("%s: the typed envelope re-encodes differently: %s", req.Op, firstDiff(again, raw))
	}
	return got, body
}

// checkStream scores preds again as a stream in chunks cut at every third line and checks the lines
// against the batch answer: each verdict line decodes strictly as a Verdict and equals the batch's,
// each error line is the batch's error, and score_finish's report equals the batch's report.
func checkStream(t *testing.T, s *Session, op func(protocol.Op) protocol.Op, preds string, b protocol.Batch) {
	t.Helper()
	st := roundTrip[protocol.ScoreStarted](t, s, protocol.Request{Op: op(protocol.OpScoreStart), Gold: true})
	lines := strings.SplitAfter(preds, "\n")
	var body []byte
	for i := 0; i < len(lines); i += 3 {
		chunk := strings.Join(lines[i:min(i+3, len(lines))], "")
		req := protocol.Request{Op: op(protocol.OpScoreLines), Stream: st.Stream, Lines: chunk, Line: i + 1}
		if i%2 == 1 { // every other chunk as the request's body: the same verdicts
			req.Lines, req.Body = "", []byte(chunk)
		}
		_, part := roundTripLines[protocol.LinesAnswer](t, s, req)
		body = append(body, part...)
	}
	rep := roundTrip[protocol.Report](t, s, protocol.Request{Op: op(protocol.OpScoreFinish), Stream: st.Stream})
	var want bytes.Buffer
	for _, r := range b.Results {
		text, _ := r.MarshalJSON()
		want.Write(text)
		want.WriteByte('\n')
	}
	for _, e := range b.Errors { // the one bad line is the last line
		want.Write(protocol.ErrorLine(e))
	}
	if !bytes.Equal(body, want.Bytes()) {
		t.Fatalf("streamed lines differ from the batch: %s", firstDiff(body, want.Bytes()))
	}
	for i, l := range bytes.Split(bytes.TrimSuffix(body, []byte("\n")), []byte("\n"))[:len(b.Results)] {
		var v protocol.Verdict
		dec := json.NewDecoder(bytes.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	if got, want := encodeLikeEngine(t, rep), encodeLikeEngine(t, b.Report); !bytes.Equal(got, want) {
		t.Fatalf("stream report differs from the batch report: %s", firstDiff(got, want))
	}
	if _, err := protocol.Call[protocol.Report](context.Background(), func(_ context.Context, r []byte) ([]byte, error) { return s.Handle(r), nil },
		protocol.Request{Op: protocol.OpScoreFinish, Stream: st.Stream}); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("a finished stream answered again: %v", err)
	}
}

// checkRougeLines scores pairs as a chunk and compares each line with the rouge op's answer.
func checkRougeLines(t *testing.T, s *Session, op func(protocol.Op) protocol.Op) {
	t.Helper()
	pairs := []protocol.Pair{{Ref: "the cat sat", Hyp: "the cat"}, {Ref: "x", Hyp: ""}, {Ref: "<a> & b", Hyp: "a b"}}
	var chunk bytes.Buffer
	for _, p := range pairs {
		line, _ := json.Marshal(p)
		chunk.Write(line)
		chunk.WriteString("\r\n\n") // CRLF ends and a blank line between pairs
	}
	chunk.WriteString(`{"ref": 1}` + "\n")
	la, body := roundTripLines[protocol.LinesAnswer](t, s, protocol.Request{Op: op(protocol.OpRougeLines), Lines: chunk.String(), Line: 10, Name: "p.jsonl"})
	want := roundTrip[[]protocol.Rouge](t, s, protocol.Request{Op: protocol.OpRouge, Pairs: pairs})
	var wantBody bytes.Buffer
	for _, r := range want {
		line, _ := json.Marshal(r)
		wantBody.Write(line)
		wantBody.WriteByte('\n')
	}
	wantBody.WriteString(`{"error":"line 16: want {\"ref\": text, \"hyp\": text}"}` + "\n")
	if !bytes.Equal(body, wantBody.Bytes()) {
		t.Fatalf("rouge_lines: %s", firstDiff(body, wantBody.Bytes()))
	}
	if la.Lines != 4 || la.Verdicts != 2 || len(la.Errors) != 1 || la.Errors[0].Error() != `p.jsonl:16: want {"ref": text, "hyp": text}` {
		t.Fatalf("rouge_lines envelope: %+v", la)
	}
}

// TestSamplesSayWhichTurnTheyPredict checks gold_line against the original's numbering: id 2k is the
// k-th gold call set (an API turn and the parallel ones after it), 2k+1 the turn after the set.
func TestSamplesSayWhichTurnTheyPredict(t *testing.T) {
	s := New()
	ds := roundTrip[[]protocol.DialogueSummary](t, s, protocol.Request{Op: protocol.OpDialogues, Level: "level-1-given-desc"})
	checked := 0
	for _, sum := range ds[:20] {
		d := roundTrip[protocol.Dialogue](t, s, protocol.Request{Op: protocol.OpDialogue, Level: sum.Level, File: sum.File})
		var starts, ends []int // first and last turn index of each gold call set
		for i, tn := range d.Turns {
			switch {
			case tn.Role != "API":
			case tn.Parallel && len(ends) > 0 && ends[len(ends)-1] == i-1:
				ends[len(ends)-1] = i
			default:
				starts, ends = append(starts, i), append(ends, i)
			}
		}
		for _, sm := range roundTrip[[]protocol.SampleView](t, s, protocol.Request{Op: protocol.OpSamples, Level: sum.Level, File: sum.File}) {
			if sm.Kind == protocol.KindSpecial {
				continue
			}
			want := d.Turns[starts[sm.ID/2]].Line
			if sm.ID%2 == 1 {
				want = d.Turns[ends[sm.ID/2]+1].Line
			}
			if sm.GoldLine != want {
				t.Errorf("%s sample %d: gold_line %d, want %d", sum.File, sm.ID, sm.GoldLine, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no sample checked")
	}
}

// TestBatchEncoderEqualsEncodingJSON compares the engine's hand-written batch encoder with
// encoding/json of the same values, on every oracle prediction (with the gold answers attached).
func TestBatchEncoderEqualsEncodingJSON(t *testing.T) {
	load, _, _ := oracleRequests(t)
	s := New()
	if _, err := protocol.Result(s.Handle(load)); err != nil {
		t.Fatal(err)
	}
	_, score, n := oracleRequests(t)
	var req protocol.Request
	if err := json.Unmarshal(score, &req); err != nil {
		t.Fatal(err)
	}
	req.Gold = true
	text, _ := protocol.Encode(req)
	raw, err := protocol.Result(s.Handle(text))
	if err != nil {
		t.Fatal(err)
	}
	b, err := protocol.Decode[protocol.Batch](protocol.OpScore, append(append([]byte(`{"v":1,"ok":true,"result":`), raw...), '}'))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Results)+len(b.Errors) < n {
		t.Fatalf("%d verdicts and %d errors for %d oracle lines", len(b.Results), len(b.Errors), n)
	}
	if got := encodeLikeEngine(t, b); !bytes.Equal(got, raw) {
		t.Fatalf("encoding/json and the engine's encoder differ: %s", firstDiff(got, raw))
	}
}

// firstDiff shows where two encodings part.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-120)
	return fmt.Sprintf("at byte %d:\n got ...%s\nwant ...%s", i, got[lo:min(len(got), i+120)], want[lo:min(len(want), i+120)])
}
