package score

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// jsonCases are verdicts of every shape: a call with its result, a wrong call with an error and the
// gold, a gold call set with its members, replies with and without a ROUGE error, a special case.
var jsonCases = []struct {
	name string
	r    Result
	want string // the JSON text, "" to compare with encoding/json alone
}{
	{"call", Result{Level: dataset.Level1, File: "a.jsonl", ID: 3, Line: 7, Kind: KindCall, CallVerdict: &CallVerdict{
		Category: Correct, Correct: true, Tool: "GetToday", Form: "text", Called: "GetToday", Result: json.RawMessage(`{"output":"2023-03-31"}`)}},
		`{"level":"` + dataset.Level1 + `","file":"a.jsonl","id":3,"line":7,"kind":"call","category":"` + Correct +
			`","correct":true,"tool":"GetToday","form":"text","called":"GetToday","result":{"output":"2023-03-31"}}`},
	{"wrong call with the gold", Result{Level: dataset.Level2, File: "b é.jsonl", ID: 0, Kind: KindCall, CallVerdict: &CallVerdict{
		Category: NoAPICall, Tool: "AddAlarm", Error: "no call \"here\"\n\ttab", GoldCall: "[AddAlarm(time='x')]", GoldResult: json.RawMessage(`{"exception":null}`)}}, ""},
	{"gold call set", Result{Level: dataset.Level1, File: "par.jsonl", ID: 2, Line: 1, Kind: KindCall, CallVerdict: &CallVerdict{
		Category: ExtraCall, Tool: "Dictionary", Form: "native", Called: "Dictionary", Calls: []MemberVerdict{
			{Category: Correct, Correct: true, Tool: "Dictionary", Called: "Dictionary", Result: json.RawMessage(`{"output":[1]}`)},
			{Category: MissingCall, Tool: "Translate"},
			{Category: ExtraCall, Called: "GetToday", Error: "boom"},
		}}}, ""},
	{"reply", Result{Level: dataset.Level1, File: "a.jsonl", ID: 4, Kind: KindReply, ReplyVerdict: &ReplyVerdict{RougeL: 0.8}},
		`{"level":"` + dataset.Level1 + `","file":"a.jsonl","id":4,"kind":"reply","rouge_l":0.8}`},
	{"empty reply", Result{Level: dataset.Level1, File: "a.jsonl", ID: 5, Kind: KindReply, ReplyVerdict: &ReplyVerdict{Error: "Hypothesis is empty."}}, ""},
	{"special case", Result{Level: dataset.Level1, File: "s.jsonl", ID: 1, Kind: KindSpecial, Special: "no_tool", CallVerdict: &CallVerdict{
		Category: PrematureCall, Form: "text", Called: "GetToday"}}, ""},
}

// TestAppendResult: AppendResult writes the bytes encoding/json writes for the verdict (through
// protocol.Verdict's MarshalJSON), and the documented text where the case gives it.
func TestAppendResult(t *testing.T) {
	for _, tt := range jsonCases {
		var b bytes.Buffer
		AppendResult(&b, &tt.r)
		want, err := json.Marshal(tt.r)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("%s: AppendResult %s\nencoding/json %s", tt.name, b.Bytes(), want)
		}
		if tt.want != "" && b.String() != tt.want {
			t.Errorf("%s: AppendResult %s\nwant %s", tt.name, b.Bytes(), tt.want)
		}
	}
}

// TestAppendBatch: a batch is written as encoding/json writes it, verdicts, line errors and report.
func TestAppendBatch(t *testing.T) {
	bt := &Batch{Errors: []dataset.LineError{{File: "p.jsonl", Line: 2, Message: "not JSON"}}, Report: &Report{State: string(Replay), Data: "tiny"}}
	for _, tt := range jsonCases {
		bt.Results = append(bt.Results, tt.r)
	}
	var b bytes.Buffer
	if err := AppendBatch(&b, bt); err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(bt)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("AppendBatch %s\nencoding/json %s", b.Bytes(), want)
	}
}
