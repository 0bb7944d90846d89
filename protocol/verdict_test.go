package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestVerdictJSON(t *testing.T) {
	tests := []struct {
		name string
		v    Verdict
		want string
	}{
		{"a wrong call keeps correct:false and the tool",
			Verdict{Level: "level-1-given-desc", File: "a.jsonl", ID: 0, Line: 4, Kind: KindCall,
				CallVerdict: &CallVerdict{Category: "NO_API_CALL", Tool: "AddAlarm"}},
			`{"level":"level-1-given-desc","file":"a.jsonl","id":0,"line":4,"kind":"call","category":"NO_API_CALL","correct":false,"tool":"AddAlarm"}`},
		{"a call that ran, with its envelope and the gold answer",
			Verdict{Level: "l", File: "a.jsonl", ID: 2, Kind: KindCall, CallVerdict: &CallVerdict{Category: "CORRECT", Correct: true, Tool: "T",
				Form: "text", Called: "T", Result: json.RawMessage(`{"output":1}`), GoldCall: "[T()]", GoldResult: json.RawMessage(`{"output":1}`)}},
			`{"level":"l","file":"a.jsonl","id":2,"kind":"call","category":"CORRECT","correct":true,"tool":"T","form":"text","called":"T","result":{"output":1},"gold_call":"[T()]","gold_result":{"output":1}}`},
		{"a special case keeps an empty tool",
			Verdict{Level: "l", File: "s.jsonl", ID: 4, Kind: KindSpecial, Special: "no_tool", CallVerdict: &CallVerdict{Category: "CORRECT", Correct: true}},
			`{"level":"l","file":"s.jsonl","id":4,"kind":"special","category":"CORRECT","correct":true,"tool":"","special":"no_tool"}`},
		{"a reply keeps rouge_l 0 and its error, with markup as it is",
			Verdict{Level: "l", File: "a.jsonl", ID: 1, Kind: KindReply, ReplyVerdict: &ReplyVerdict{Error: "Hypothesis is empty. <b>"}},
			`{"level":"l","file":"a.jsonl","id":1,"kind":"reply","rouge_l":0,"error":"Hypothesis is empty. <b>"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.v.MarshalJSON()
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s %v\nwant %s", got, err, tt.want)
			}
			var back Verdict
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.v) {
				t.Fatalf("read back %+v, want %+v", back, tt.v)
			}
		})
	}
}

func TestVerdictRefusesWhatItDoesNotDeclare(t *testing.T) {
	for _, text := range []string{
		`{"level":"l","file":"f","id":0,"kind":"call","category":"CORRECT","correct":true,"tool":"T","verdict":"?"}`,
		`{"level":"l","file":"f","id":1,"kind":"reply","rouge_l":0.5,"category":"CORRECT"}`,
		`{"level":"l","file":"f","id":"0","kind":"call"}`,
	} {
		var v Verdict
		if err := json.Unmarshal([]byte(text), &v); err == nil {
			t.Errorf("%s read without an error", text)
		}
	}
}

func TestVerdictAccessors(t *testing.T) {
	call := Verdict{Kind: KindCall, CallVerdict: &CallVerdict{Category: "HAS_EXCEPTION", Error: "boom"}}
	reply := Verdict{Kind: KindReply, ReplyVerdict: &ReplyVerdict{RougeL: 0.25, Error: ""}}
	if call.Call().Category != "HAS_EXCEPTION" || call.Err() != "boom" {
		t.Errorf("call accessors: %+v %q", call.Call(), call.Err())
	}
	if _, ok := call.Reply(); ok {
		t.Error("a call verdict says it is a reply")
	}
	if r, ok := reply.Reply(); !ok || r.RougeL != 0.25 || reply.Call().Category != "" || reply.Err() != "" {
		t.Errorf("reply accessors: %+v %v %+v", r, ok, reply.Call())
	}
	if !strings.Contains(string(must(json.Marshal([]Verdict{call}))), `"error":"boom"`) {
		t.Error("a verdict in a slice is not written with its own encoder")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
