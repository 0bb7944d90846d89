package score

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestStreamEqualsScore judges the same prediction file whole (Score) and as a stream cut into
// chunks of several sizes: the stream writes one line per non-blank input line in order (the
// verdict, or the error line in the error's place) and its report is Score's, byte for byte.
func TestStreamEqualsScore(t *testing.T) {
	data, ix := builtin(t)
	var in bytes.Buffer
	for i, sm := range ix.All()[:300] {
		pred := GoldPrediction(sm.Dialogue, sm.GoldTurn())
		if sm.Kind == KindReply {
			pred = "Sure, it is done."
		}
		if i%7 == 3 {
			pred = "[GetToday()]"
		}
		line, _ := json.Marshal(map[string]any{"level": sm.Dialogue.Level, "file": sm.Dialogue.File, "id": sm.ID, "pred": pred})
		in.Write(line)
		in.WriteByte('\n')
		switch i % 50 {
		case 10:
			in.WriteString("{broken\n")
		case 20:
			in.WriteString("\n") // blank: no line out
		case 30:
			in.WriteString(`{"file": "nope.jsonl", "id": 0, "pred": "x"}` + "\n")
		}
	}
	preds, parseErrs := ParsePredictions("p.jsonl", in.Bytes(), "")
	whole := Score(data, ix, preds, Replay, "p.jsonl")
	whole.Errors = append(parseErrs, whole.Errors...)
	var want bytes.Buffer
	byLine := map[int][]byte{}
	for i := range whole.Results {
		var b bytes.Buffer
		AppendResult(&b, &whole.Results[i])
		b.WriteByte('\n')
		byLine[whole.Results[i].Line] = b.Bytes()
	}
	for _, e := range whole.Errors {
		byLine[e.Line] = protocol.ErrorLine(e)
	}
	for n := 1; n <= strings.Count(in.String(), "\n"); n++ {
		want.Write(byLine[n])
	}
	wantReport, _ := json.Marshal(whole.Report)

	lines := strings.SplitAfter(in.String(), "\n")
	for _, size := range []int{1, 2, 7, 64, len(lines)} {
		t.Run(fmt.Sprintf("chunks of %d lines", size), func(t *testing.T) {
			st := NewStream(data, ix, Replay, "p.jsonl", "", false)
			var got bytes.Buffer
			total, verdicts, errs := 0, 0, 0
			for i := 0; i < len(lines); i += size {
				n, v, e := st.Lines([]byte(strings.Join(lines[i:min(i+size, len(lines))], "")), i+1, &got)
				total, verdicts, errs = total+n, verdicts+v, errs+len(e)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("stream lines differ from Score's:\n got %.300s\nwant %.300s", got.Bytes(), want.Bytes())
			}
			if verdicts != len(whole.Results) || errs != len(whole.Errors) || total != verdicts+errs {
				t.Fatalf("%d lines, %d verdicts, %d errors; want %d verdicts, %d errors", total, verdicts, errs, len(whole.Results), len(whole.Errors))
			}
			if rep, _ := json.Marshal(st.Report()); !bytes.Equal(rep, wantReport) {
				t.Fatalf("report differs:\n got %s\nwant %s", rep, wantReport)
			}
		})
	}
}
