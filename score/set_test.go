package score

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

// setSample returns the call sample of a builtin dialogue whose gold is a call set.
func setSample(t *testing.T, ix *Index, file string) Sample {
	t.Helper()
	for _, sm := range ix.All() {
		if sm.Dialogue.File == file && sm.Kind == KindCall && len(sm.Set) > 1 {
			return sm
		}
	}
	t.Fatalf("no call-set sample in %s", file)
	return Sample{}
}

// native renders calls as a JSON list of native calls.
func nativeList(calls ...string) string { return "[" + strings.Join(calls, ",") + "]" }

// TestSetVerdicts judges every outcome of a gold call set, in both forms: all right in the gold order
// and in others, one call missing, one extra, one wrong (with that call's own category).
func TestSetVerdicts(t *testing.T) {
	data, ix := builtin(t)
	stock := setSample(t, ix, "par-stock-03.jsonl") // MSFT, AAPL, TSM on 2023-03-31
	q := func(code, date string) string { return "QueryStock(stock_code='" + code + "', date='" + date + "')" }
	n := func(code, date string) string {
		return `{"name":"QueryStock","arguments":{"stock_code":"` + code + `","date":"` + date + `"}}`
	}
	const d = "2023-03-31"
	tests := []struct {
		name string
		pred string
		want string
		// calls are the per-call categories, gold calls in order then extras.
		calls []string
	}{
		{"text, gold order", "[" + q("MSFT", d) + ", " + q("AAPL", d) + ", " + q("TSM", d) + "]", Correct, []string{Correct, Correct, Correct}},
		{"text, another order", "[" + q("TSM", d) + ", " + q("MSFT", d) + ", " + q("AAPL", d) + "]", Correct, []string{Correct, Correct, Correct}},
		{"text, one bracketed call a line", "[" + q("AAPL", d) + "]\n[" + q("TSM", d) + "]\n[" + q("MSFT", d) + "]", Correct, []string{Correct, Correct, Correct}},
		{"text, one missing", "[" + q("TSM", d) + ", " + q("MSFT", d) + "]", MissingCall, []string{Correct, MissingCall, Correct}},
		{"text, one extra", "[" + q("MSFT", d) + ", " + q("AAPL", d) + ", " + q("TSM", d) + ", " + q("AAPL", "2023-03-30") + "]", ExtraCall,
			[]string{Correct, Correct, Correct, ExtraCall}},
		{"text, one wrong value", "[" + q("MSFT", d) + ", " + q("AAPL", "2023-03-30") + ", " + q("TSM", d) + "]", OutputMismatch,
			[]string{Correct, OutputMismatch, Correct}},
		{"text, one raises", "[" + q("MSFT", d) + ", " + q("AAPL", "2023-01-02") + ", " + q("TSM", d) + "]", HasException,
			[]string{Correct, HasException, Correct}},
		{"text, one wrong tool", "[" + q("MSFT", d) + ", Wiki(keyword='apple'), " + q("TSM", d) + "]", APINameMismatch,
			[]string{Correct, APINameMismatch, Correct}},
		{"text, only the first call (what the original's parser reads)", "[" + q("MSFT", d) + "]", MissingCall,
			[]string{Correct, MissingCall, MissingCall}},
		{"no call", "Which stocks do you mean?", NoAPICall, nil},
		{"native, gold order", nativeList(n("MSFT", d), n("AAPL", d), n("TSM", d)), Correct, []string{Correct, Correct, Correct}},
		{"native, another order", nativeList(n("AAPL", d), n("TSM", d), n("MSFT", d)), Correct, []string{Correct, Correct, Correct}},
		{"native, tool_calls message", `{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"1","type":"function","function":{"name":"QueryStock","arguments":"{\"stock_code\":\"TSM\",\"date\":\"2023-03-31\"}"}},` +
			`{"id":"2","type":"function","function":{"name":"QueryStock","arguments":"{\"stock_code\":\"AAPL\",\"date\":\"2023-03-31\"}"}},` +
			`{"id":"3","type":"function","function":{"name":"QueryStock","arguments":"{\"stock_code\":\"MSFT\",\"date\":\"2023-03-31\"}"}}]}`,
			Correct, []string{Correct, Correct, Correct}},
		{"native, one missing", nativeList(n("AAPL", d), n("MSFT", d)), MissingCall, []string{Correct, Correct, MissingCall}},
		{"native, one extra", nativeList(n("AAPL", d), n("MSFT", d), n("TSM", d), n("KO", "2023-11-15")), ExtraCall,
			[]string{Correct, Correct, Correct, ExtraCall}},
		{"native, one wrong value", nativeList(n("MSFT", d), n("AAPL", d), n("TSM", "2023-03-30")), OutputMismatch,
			[]string{Correct, Correct, OutputMismatch}},
		{"native, one call alone", n("AAPL", d), MissingCall, []string{MissingCall, Correct, MissingCall}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := New(data, Replay).Call(stock, tt.pred)
			if v.Category != tt.want || v.Correct != (tt.want == Correct) {
				t.Fatalf("%s: %s (correct=%v) %s; want %s", tt.pred, v.Category, v.Correct, v.Error, tt.want)
			}
			var got []string
			for _, m := range v.Calls {
				got = append(got, m.Category)
			}
			if strings.Join(got, " ") != strings.Join(tt.calls, " ") {
				t.Errorf("calls %v, want %v", got, tt.calls)
			}
			if v.Tool != "QueryStock" {
				t.Errorf("tool %q, want the set's first gold tool", v.Tool)
			}
		})
	}
}

// TestSetRunsInOneWorld: a set's calls run one after another in one world, in the order written, so
// a call repeated in a set meets the state its twin left (the second deletion finds nothing) and
// calls in another order still find the state they need.
func TestSetRunsInOneWorld(t *testing.T) {
	data, ix := builtin(t)
	del := setSample(t, ix, "par-alarm-02.jsonl") // LiWei's two alarms deleted at once
	tok := del.GoldTurn().Params.String("token")
	a := "DeleteAlarm(token='" + tok + "', time='2023-04-04 06:30:00')"
	b := "DeleteAlarm(token='" + tok + "', time='2023-04-25 06:30:00')"
	tests := []struct {
		name, pred, want string
	}{
		{"gold order", "[" + a + ", " + b + "]", Correct},
		{"reverse order", "[" + b + ", " + a + "]", Correct},
		{"the same alarm twice: the second finds it gone", "[" + a + ", " + a + "]", HasException},
	}
	for _, mode := range []Mode{Replay, Fresh} {
		for _, tt := range tests {
			v := New(data, mode).Call(del, tt.pred)
			if v.Category != tt.want {
				t.Errorf("%s, %s: %s %s; want %s", mode, tt.name, v.Category, v.Error, tt.want)
			}
		}
	}
}

// TestSeveralCallsForOneGoldCall: on our data, more calls than the sample's one gold call is
// EXTRA_CALL; on the original's (parity mode), the first call is judged alone, as its parser reads it.
func TestSeveralCallsForOneGoldCall(t *testing.T) {
	data, ix := builtin(t)
	var sm Sample
	for _, s := range ix.All() {
		if s.Kind == KindCall && len(s.Set) == 0 && s.GoldTurn().Tool == "QueryStock" {
			sm = s
			break
		}
	}
	gold := GoldSetPrediction(sm)
	two := "[" + strings.Trim(gold, "[]") + ", GetToday()]"
	if v := New(data, Replay).Call(sm, two); v.Category != ExtraCall || len(v.Calls) != 2 || v.Calls[0].Category != Correct {
		t.Errorf("our data: %s %+v; want EXTRA_CALL with the gold call right", v.Category, v.Calls)
	}
	parity := *data
	parity.Repaired = false
	if v := New(&parity, Replay).Call(sm, two); v.Category != Correct || v.Calls != nil {
		t.Errorf("parity mode: %s %+v; want CORRECT on the first call alone", v.Category, v.Calls)
	}
	if r := NewReport(&parity, NewIndex(&parity), nil, Replay); !strings.Contains(strings.Join(r.Notes, " "), "first call only") {
		t.Errorf("a parity report must say that several calls are judged by the first: %v", r.Notes)
	}
}

// TestSetSamples: a set is one call sample (its calls in Set, predicted from the turns before the
// first) and one reply sample after its last call; ids count sets, so a dialogue without parallel
// turns keeps the original's numbering.
func TestSetSamples(t *testing.T) {
	_, ix := builtin(t)
	sm := setSample(t, ix, "par-alarm-01.jsonl") // login, an AI turn, then two AddAlarm calls at once
	if sm.ID != 2 || len(sm.Set) != 2 || sm.History != sm.Set[0] || sm.Dialogue.Turns[sm.Set[1]].Tool != "AddAlarm" {
		t.Fatalf("set sample %+v", sm)
	}
	reply, err := ix.Find(dataset.Level1, "par-alarm-01.jsonl", 3)
	if err != nil || reply.Kind != KindReply || reply.History != sm.Set[1]+1 {
		t.Fatalf("reply sample after the set: %+v %v", reply, err)
	}
	if _, err := ix.Find(dataset.Level1, "par-alarm-01.jsonl", 4); err == nil {
		t.Errorf("the set counts once: a dialogue of 2 sets and no special case has samples 0-3 only")
	}
	p := BuildPrompt(sm)
	if !strings.Contains(p.Text, "in one list") || p.Gold != GoldSetPrediction(sm) {
		t.Errorf("the prompt of a set sample: gold %q", p.Gold)
	}
	// The native prompt of the reply sample shows the set as one assistant message with two calls.
	var msgs []struct {
		Role      string            `json:"role"`
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}
	if err := json.Unmarshal(BuildPrompt(reply).Messages, &msgs); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
		if len(m.ToolCalls) == 2 {
			roles[len(roles)-1] += "x2"
		}
	}
	if got := strings.Join(roles, " "); got != "system user assistant tool assistant assistantx2 tool tool" {
		t.Errorf("native history: %s", got)
	}
}

// TestMatch: the pairing is a maximum matching, not a greedy one.
func TestMatch(t *testing.T) {
	// Prediction 0 fits gold 0 and 1, prediction 1 only gold 0: the greedy pairing 0-0 leaves gold 1
	// alone.
	ok := func(p, g int) bool { return p == 0 || g == 0 }
	pair := match(2, 2, ok)
	if pair[0] != 1 || pair[1] != 0 {
		t.Errorf("match = %v, want [1 0]", pair)
	}
	if pair := match(1, 3, func(p, g int) bool { return g == 2 }); pair[0] != -1 || pair[1] != -1 || pair[2] != 0 {
		t.Errorf("match = %v, want [-1 -1 0]", pair)
	}
}

// TestSetTools: a set's verdict is tallied once under each distinct tool of the set.
func TestSetTools(t *testing.T) {
	data, ix := builtin(t)
	sm := setSample(t, ix, "parm-travel-01.jsonl") // Dictionary and Translate at once
	preds := []Prediction{{Level: sm.Dialogue.Level, File: sm.Dialogue.File, ID: sm.ID, Pred: GoldSetPrediction(sm)}}
	b := Score(data, ix, preds, Replay, "t")
	var got []string
	for _, tl := range b.Report.Tools {
		got = append(got, tl.Name)
		if tl.Calls != 1 || tl.Correct != 1 {
			t.Errorf("%s: %d of %d", tl.Name, tl.Correct, tl.Calls)
		}
	}
	if strings.Join(got, " ") != "Dictionary Translate" || b.Report.Overall.Calls != 1 {
		t.Errorf("tools %v, overall calls %d; want Dictionary and Translate once each, one call sample", got, b.Report.Overall.Calls)
	}
}
