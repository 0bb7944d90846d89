package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/model"
	"github.com/apibank-playground/apibank/protocol"
	"github.com/apibank-playground/apibank/testkit/fakemodel"
)

// checkChatRequest checks a request body against the chat-completions request as OpenAI documents
// it, in the fields a run uses: model; messages, each with a role among system, user, assistant
// and tool and a string content (null only in an assistant message with tool_calls); assistant
// tool_calls as {"id","type":"function","function":{"name","arguments"}} with the arguments a
// JSON string holding a JSON object; tool messages answering an earlier call by its tool_call_id;
// tools as {"type":"function","function":{"name","description"?,"parameters"?}}; no other field.
func checkChatRequest(body []byte) error {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	for k := range req {
		if !slices.Contains([]string{"model", "messages", "temperature", "max_tokens", "tools", "tool_choice", "stream", "stream_options"}, k) {
			return fmt.Errorf("field %q is not a chat-completions request field", k)
		}
	}
	var name string
	if json.Unmarshal(req["model"], &name) != nil || name == "" {
		return fmt.Errorf("model is not a non-empty string: %s", req["model"])
	}
	var msgs []map[string]json.RawMessage
	if json.Unmarshal(req["messages"], &msgs) != nil || len(msgs) == 0 {
		return fmt.Errorf("messages is not a non-empty list")
	}
	callIDs := map[string]bool{}
	for i, m := range msgs {
		var role string
		_ = json.Unmarshal(m["role"], &role)
		for k := range m {
			if !slices.Contains([]string{"role", "content", "tool_calls", "tool_call_id"}, k) {
				return fmt.Errorf("message %d: field %q is not a message field", i, k)
			}
		}
		if !slices.Contains([]string{"system", "user", "assistant", "tool"}, role) {
			return fmt.Errorf("message %d: role %q", i, role)
		}
		content, ok := m["content"]
		if !ok {
			return fmt.Errorf("message %d: no content", i)
		}
		var text string
		if string(content) == "null" {
			if role != "assistant" || m["tool_calls"] == nil {
				return fmt.Errorf("message %d: null content in a %s message without tool calls", i, role)
			}
		} else if json.Unmarshal(content, &text) != nil {
			return fmt.Errorf("message %d: content is not a string: %s", i, content)
		}
		if raw, ok := m["tool_calls"]; ok {
			if role != "assistant" {
				return fmt.Errorf("message %d: tool_calls in a %s message", i, role)
			}
			var calls []map[string]json.RawMessage
			if json.Unmarshal(raw, &calls) != nil || len(calls) == 0 {
				return fmt.Errorf("message %d: tool_calls is not a non-empty list", i)
			}
			for j, c := range calls {
				var id, typ string
				var fn map[string]json.RawMessage
				if len(c) != 3 || json.Unmarshal(c["id"], &id) != nil || id == "" || json.Unmarshal(c["type"], &typ) != nil || typ != "function" || json.Unmarshal(c["function"], &fn) != nil {
					return fmt.Errorf("message %d call %d: not {id, type: function, function}: %v", i, j, c)
				}
				var fname, args string
				if len(fn) != 2 || json.Unmarshal(fn["name"], &fname) != nil || fname == "" || json.Unmarshal(fn["arguments"], &args) != nil {
					return fmt.Errorf("message %d call %d: function is not {name, arguments as a string}: %v", i, j, fn)
				}
				var obj map[string]any
				if json.Unmarshal([]byte(args), &obj) != nil {
					return fmt.Errorf("message %d call %d: arguments %q are not JSON object text", i, j, args)
				}
				callIDs[id] = true
			}
		}
		if raw, ok := m["tool_call_id"]; ok {
			var id string
			if role != "tool" || json.Unmarshal(raw, &id) != nil || !callIDs[id] {
				return fmt.Errorf("message %d: tool_call_id %s answers no earlier call (role %s)", i, raw, role)
			}
		} else if role == "tool" {
			return fmt.Errorf("message %d: a tool message without tool_call_id", i)
		}
	}
	if raw, ok := req["tools"]; ok {
		var tools []map[string]json.RawMessage
		if json.Unmarshal(raw, &tools) != nil || len(tools) == 0 {
			return fmt.Errorf("tools is not a non-empty list")
		}
		for i, tl := range tools {
			var typ string
			var fn map[string]json.RawMessage
			if len(tl) != 2 || json.Unmarshal(tl["type"], &typ) != nil || typ != "function" || json.Unmarshal(tl["function"], &fn) != nil {
				return fmt.Errorf("tool %d: not {type: function, function}", i)
			}
			var fname string
			if json.Unmarshal(fn["name"], &fname) != nil || fname == "" {
				return fmt.Errorf("tool %d: no name", i)
			}
			for k, v := range fn {
				switch k {
				case "name":
				case "description":
					var d string
					if json.Unmarshal(v, &d) != nil {
						return fmt.Errorf("tool %s: description is not a string", fname)
					}
				case "parameters":
					var p map[string]any
					if json.Unmarshal(v, &p) != nil || p["type"] != "object" {
						return fmt.Errorf("tool %s: parameters is not an object schema", fname)
					}
				default:
					return fmt.Errorf("tool %s: field %q", fname, k)
				}
			}
		}
	}
	return nil
}

func TestCheckChatRequestRefusesTheFlatShape(t *testing.T) {
	for _, c := range []struct{ name, body string }{
		{"flat tool", `{"model":"m","messages":[{"role":"user","content":"x"}],"tools":[{"name":"A","parameters":{"type":"object"}}]}`},
		{"flat call", `{"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","name":"A","arguments":"{}"}]},{"role":"tool","content":"r","tool_call_id":"c"}]}`},
		{"arguments as an object", `{"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"A","arguments":{}}}]}]}`},
		{"tool answers nothing", `{"model":"m","messages":[{"role":"user","content":"x"},{"role":"tool","content":"r","tool_call_id":"c"}]}`},
		{"extra field", `{"model":"m","level":"level-1-given-desc","messages":[{"role":"user","content":"x"}]}`},
		{"no model", `{"messages":[{"role":"user","content":"x"}]}`},
	} {
		if checkChatRequest([]byte(c.body)) == nil {
			t.Errorf("%s: accepted %s", c.name, c.body)
		}
	}
	ok := `{"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"A","arguments":"{\"a\":1}"}}]},{"role":"tool","content":"r","tool_call_id":"c"}],"tools":[{"type":"function","function":{"name":"A","parameters":{"type":"object"}}}]}`
	if err := checkChatRequest([]byte(ok)); err != nil {
		t.Fatalf("refused a good request: %v", err)
	}
}

// sentBodies are the bodies of the chat requests the fake received, sorted.
func sentBodies(srv *fakemodel.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/chat/completions") {
			out = append(out, string(r.Body))
		}
	}
	slices.Sort(out)
	return out
}

func splitLines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestPromptsAreTheBodiesARunSends(t *testing.T) {
	script, _ := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, form := range []string{Text, Native} {
		t.Run(form, func(t *testing.T) {
			settings := model.Settings{BaseURL: srv.URL(), Model: "fake-model"}
			cfg := Config{Form: form, Levels: []string{"level-1-given-desc", "level-2-toolsearcher"}, Limit: 6}
			text, err := Prompts(context.Background(), native(), cfg, settings)
			if err != nil {
				t.Fatal(err)
			}
			lines := splitLines(text)
			if len(lines) != 12 {
				t.Fatalf("%d prompt lines, want 12", len(lines))
			}
			for i, l := range lines {
				if err := checkChatRequest([]byte(l)); err != nil {
					t.Fatalf("line %d is not a chat-completions request: %v\n%s", i+1, err, l)
				}
				if hasTools := strings.Contains(l, `"tools":[`); hasTools != (form == Native) {
					t.Fatalf("line %d: tools offered %v in the %s form", i+1, hasTools, form)
				}
			}
			srv.Reset()
			if _, err := Run(context.Background(), native(), model.New(settings), cfg, Options{}); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(lines)
			slices.Sort(want)
			if got := sentBodies(srv); !slices.Equal(got, want) {
				t.Fatalf("the run sent other bodies than the prompts file holds:\nsent %d, first %.300s\nfile %d, first %.300s", len(got), got[0], len(want), want[0])
			}
		})
	}
	// Every level's lines, level 3's step samples (with tool results as tool messages) included,
	// are requests; without a model name the placeholder is named.
	text, err := Prompts(context.Background(), native(), Config{Form: Native, Levels: []string{Level3}, Limit: 20}, model.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	toolTurns := 0
	for i, l := range splitLines(text) {
		if err := checkChatRequest([]byte(l)); err != nil {
			t.Fatalf("level-3 line %d: %v\n%s", i+1, err, l)
		}
		if !strings.HasPrefix(l, `{"model":"`+DefaultPromptModel+`"`) {
			t.Fatalf("level-3 line %d does not name the placeholder model: %.80s", i+1, l)
		}
		toolTurns += strings.Count(l, `"role":"tool"`)
	}
	if toolTurns == 0 {
		t.Fatal("no level-3 step sample carries an earlier call's result: the tool message shape is untested")
	}
}

func TestCustomID(t *testing.T) {
	long := "RecordHealthData-AppointmentRegistration-EmergencyKnowledge-level-2-1.jsonl"
	cases := []struct {
		task Task
		want string
	}{
		{Task{Level: "level-1-given-desc", File: "AddAlarm-level-1-1.jsonl", ID: 2}, "1/AddAlarm-level-1-1/2"},
		{Task{Level: "level-2-toolsearcher", File: "x.jsonl", ID: 11}, "2/x/11"},
		{Task{Level: Level3, File: "scene-04.json", ID: 0}, "3/scene-04/0"},
	}
	for _, c := range cases {
		if got := CustomID(c.task); got != c.want {
			t.Errorf("CustomID(%+v) = %q, want %q", c.task, got, c.want)
		}
	}
	a := CustomID(Task{Level: "level-2-toolsearcher", File: long, ID: 5})
	b := CustomID(Task{Level: "level-2-toolsearcher", File: strings.Replace(long, "-1.jsonl", "-2.jsonl", 1), ID: 5})
	for _, id := range []string{a, b} {
		if len(id) > MaxCustomID || !strings.HasPrefix(id, "2/RecordHealthData-") || !strings.HasSuffix(id, "/5") || levelOfID(id) != "level-2-toolsearcher" {
			t.Errorf("long name: %q (%d chars)", id, len(id))
		}
	}
	if a == b {
		t.Errorf("two long names cut to the same id %q", a)
	}
}

func TestBatchRoundTripScoresWhatARunScores(t *testing.T) {
	script, _ := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	levels := []string{"level-1-given-desc", "level-2-toolsearcher"}
	for _, form := range []string{Text, Native} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", form, stream), func(t *testing.T) {
				cfg := Config{Form: form, Levels: levels, Limit: 8, Concurrency: 3}
				settings := model.Settings{BaseURL: srv.URL(), Model: "fake-model", Stream: stream}
				srv.Reset()
				live, err := Run(context.Background(), native(), model.New(settings), cfg, Options{})
				if err != nil {
					t.Fatal(err)
				}
				liveSent := sentBodies(srv)

				input, err := BatchInput(context.Background(), native(), cfg, settings)
				if err != nil {
					t.Fatal(err)
				}
				ids := map[string]bool{}
				for i, l := range splitLines(input) {
					var in struct {
						CustomID string          `json:"custom_id"`
						Method   string          `json:"method"`
						URL      string          `json:"url"`
						Body     json.RawMessage `json:"body"`
					}
					if err := json.Unmarshal([]byte(l), &in); err != nil {
						t.Fatal(err)
					}
					if in.Method != "POST" || in.URL != "/v1/chat/completions" || in.CustomID == "" || len(in.CustomID) > MaxCustomID || ids[in.CustomID] {
						t.Fatalf("input line %d: %s %s id %q", i+1, in.Method, in.URL, in.CustomID)
					}
					ids[in.CustomID] = true
					if err := checkChatRequest(in.Body); err != nil {
						t.Fatalf("input line %d's body: %v", i+1, err)
					}
				}
				if len(ids) != len(live.Predictions) {
					t.Fatalf("%d batch lines for %d samples the run asked", len(ids), len(live.Predictions))
				}
				srv.Reset()
				output := answerBatch(t, srv, input)
				if !stream && !slices.Equal(sentBodies(srv), liveSent) {
					t.Fatal("the batch's bodies are not the bodies the run sent")
				}
				res, bad, err := ScoreBatch(context.Background(), native(), BatchFile{"in.jsonl", input}, BatchFile{"out.jsonl", output}, BatchFile{}, "", nil)
				if err != nil || len(bad) != 0 {
					t.Fatalf("score: %v %v", err, bad)
				}
				if got, want := OutJSONL(res.Predictions, res.Episodes), OutJSONL(live.Predictions, live.Episodes); !bytes.Equal(got, want) {
					t.Fatalf("batch predictions differ from the run's:\n%s\nwant\n%s", got, want)
				}
				if !reflect.DeepEqual(res.Batch.Report, live.Batch.Report) {
					t.Fatal("the batch's report differs from the run's")
				}
				if !reflect.DeepEqual(res.Config.Levels, live.Config.Levels) || res.Config.Form != form || len(res.Failures) != 0 || res.TokensIn != live.TokensIn {
					t.Fatalf("config %+v, %d failures, tokens %d (run: %d)", res.Config, len(res.Failures), res.TokensIn, live.TokensIn)
				}
				if c := res.Batch.Report.Overall; c.Correct == 0 || c.Correct == c.Calls {
					t.Fatalf("the answers should be right and wrong both: %d of %d", c.Correct, c.Calls)
				}
			})
		}
	}
}

func TestBatchLevel3StepSamples(t *testing.T) {
	script, _ := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cfg := Config{Form: Native, Levels: []string{Level3}, Limit: 10}
	input, err := BatchInput(context.Background(), native(), cfg, model.Settings{Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	steps, err := SampleTasks(context.Background(), native(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(input)
	if len(lines) != len(steps) || len(steps) != 10 {
		t.Fatalf("%d lines for %d step samples", len(lines), len(steps))
	}
	for i, st := range steps {
		if !strings.HasPrefix(lines[i], `{"custom_id":"`+CustomID(st)+`"`) {
			t.Fatalf("line %d does not name step %+v", i+1, st)
		}
	}
	output := answerBatch(t, srv, input)
	res, bad, err := ScoreBatch(context.Background(), native(), BatchFile{"in", input}, BatchFile{"out", output}, BatchFile{}, "", nil)
	if err != nil || len(bad) != 0 {
		t.Fatal(err, bad)
	}
	if len(res.Predictions) != 10 || res.Predictions[0].Level != Level3 {
		t.Fatalf("%d predictions: %+v", len(res.Predictions), res.Predictions)
	}
	// The report is what `apibank score` gives the same prediction file.
	b, err := protocol.Call[protocol.Batch](context.Background(), native(), protocol.Request{Op: protocol.OpScore, Preds: string(PredictionsJSONL(res.Predictions))})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Report, res.Batch.Report) || res.Batch.Report.Levels[0].Name != Level3 || res.Batch.Report.Levels[0].Calls == 0 {
		t.Fatalf("level-3 step report: %+v", res.Batch.Report.Levels)
	}
}

func TestBatchScoreKeepsTheGoodLines(t *testing.T) {
	script, _ := goldScript(t)
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cfg := Config{Form: Native, Levels: []string{"level-1-given-desc"}, Limit: 8}
	input, err := BatchInput(context.Background(), native(), cfg, model.Settings{Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, l := range splitLines(input) {
		var in struct {
			CustomID string `json:"custom_id"`
		}
		_ = json.Unmarshal([]byte(l), &in)
		ids = append(ids, in.CustomID)
	}
	good := answerBatch(t, srv, input)
	answers := map[string]string{}
	for _, l := range splitLines(good) {
		var o struct {
			CustomID string `json:"custom_id"`
		}
		_ = json.Unmarshal([]byte(l), &o)
		answers[o.CustomID] = l
	}
	// The output file: two good lines, then every kind of trouble, each on a known line.
	out := strings.Join([]string{
		answers[ids[0]], // 1: good
		`{"level":"level-1-given-desc","file":"x.jsonl","id":0,"pred":"[A()]"}`,                                                                                                  // 2: a prediction line, not an output line
		fmt.Sprintf(`{"id":"b","custom_id":%q,"response":{"status_code":429,"body":{"error":{"message":"Rate limit reached","type":"rate_limit_error"}}},"error":null}`, ids[2]), // 3: failed, 429
		fmt.Sprintf(`{"id":"b","custom_id":%q,"response":{"status_code":200,"body":{"error":{"message":"upstream overloaded","code":503}}},"error":null}`, ids[3]),               // 4: failed in the body
		`{"id":"b","custom_id":"1/Nothing-here/0","response":{"status_code":200,"body":{}},"error":null}`,                                                                        // 5: a foreign id
		answers[ids[0]], // 6: a second answer
		`{"id":"b","custom_id":` + fmt.Sprintf("%q", ids[4]) + `,"response":{"status_code":200,"body":"not json"},"error":null}`, // 7: a body that is not an answer
		answers[ids[5]],                          // 8: good
		answers[ids[6]][:len(answers[ids[6]])/2], // 9: truncated
	}, "\n")
	errs := fmt.Sprintf(`{"id":"b","custom_id":%q,"response":null,"error":{"code":"batch_expired","message":"This request could not be executed before the completion window expired."}}`+"\n", ids[1])
	res, bad, err := ScoreBatch(context.Background(), native(), BatchFile{"in.jsonl", input}, BatchFile{"out.jsonl", []byte(out)}, BatchFile{"err.jsonl", []byte(errs)}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var where []string
	for _, b := range bad {
		where = append(where, fmt.Sprintf("%s:%d", b.File, b.Line))
		if !strings.HasPrefix(b.Error(), fmt.Sprintf("%s:%d: ", b.File, b.Line)) {
			t.Errorf("line error %q does not start with file:line", b.Error())
		}
	}
	if want := []string{"out.jsonl:2", "out.jsonl:5", "out.jsonl:6", "out.jsonl:9"}; !slices.Equal(where, want) {
		t.Fatalf("line errors at %v, want %v: %v", where, want, bad)
	}
	if len(res.Predictions) != 2 || res.Predictions[0].ID != mustTask(t, ids[0]).ID {
		t.Fatalf("%d predictions kept, want the 2 good ones: %+v", len(res.Predictions), res.Predictions)
	}
	status := map[string]int{}
	for _, f := range res.Failures {
		status[CustomID(f.Task)] = f.Status
	}
	want := map[string]int{ids[1]: 0, ids[2]: 429, ids[3]: 503, ids[4]: 200, ids[6]: 0, ids[7]: 0}
	if !reflect.DeepEqual(status, want) {
		t.Fatalf("failed requests %v, want %v (%+v)", status, want, res.Failures)
	}
	if res.Batch == nil || res.Batch.Report.Overall.Calls+res.Batch.Report.Overall.Replies+res.Batch.Report.Overall.Special != 2 {
		t.Fatalf("the report does not judge the 2 good answers alone: %+v", res.Batch)
	}
	// An input line that is not one is an error of its own; a file of none is an error.
	_, bad, err = ScoreBatch(context.Background(), native(), BatchFile{"in.jsonl", append([]byte("{oops\n"), input...)}, BatchFile{"out.jsonl", good}, BatchFile{}, "", nil)
	if err != nil || len(bad) != 1 || bad[0].File != "in.jsonl" || bad[0].Line != 1 {
		t.Fatalf("a bad input line: %v %v", err, bad)
	}
	if _, _, err := ScoreBatch(context.Background(), native(), BatchFile{"in.jsonl", good}, BatchFile{"out.jsonl", good}, BatchFile{}, "", nil); err == nil {
		t.Fatal("an output file given as the input was taken")
	}
}

func mustTask(t *testing.T, id string) Task {
	t.Helper()
	ts, err := SampleTasks(context.Background(), native(), Config{Levels: []string{levelOfID(id)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ts {
		if CustomID(x) == id {
			return x
		}
	}
	t.Fatalf("no sample for %q", id)
	return Task{}
}

// answerBatch has the fake answer a batch input file as a provider does (fakemodel.AnswerBatch).
func answerBatch(t *testing.T, srv *fakemodel.Server, input []byte) []byte {
	t.Helper()
	out, err := srv.AnswerBatch(input)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// onData is a fresh engine holding the builtin data (seed 0) or its variant of seed.
func onData(t *testing.T, seed int64) protocol.Transport {
	t.Helper()
	do := native()
	if seed != 0 {
		if _, err := protocol.Call[protocol.Loaded](context.Background(), do, protocol.Request{Op: protocol.OpLoad, Builtin: true, Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	return do
}

// batchInputOn is the batch input of cfg prepared from the data of seed, split into its lines.
func batchInputOn(t *testing.T, seed int64, cfg Config) []string {
	t.Helper()
	input, err := BatchInput(context.Background(), onData(t, seed), cfg, model.Settings{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return splitLines(input)
}

// asksOf is what a batch input line asks: its body's messages and tools.
func asksOf(t *testing.T, line string) string {
	t.Helper()
	var in struct {
		Body struct {
			Messages json.RawMessage `json:"messages"`
			Tools    json.RawMessage `json:"tools"`
		} `json:"body"`
	}
	if err := json.Unmarshal([]byte(line), &in); err != nil {
		t.Fatal(err)
	}
	return string(in.Body.Messages) + string(in.Body.Tools)
}

// withoutATool is a native batch input line with the last tool of its body left out.
func withoutATool(t *testing.T, line string) string {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal([]byte(line), &in); err != nil {
		t.Fatal(err)
	}
	body := in["body"].(map[string]any)
	tools, _ := body["tools"].([]any)
	if len(tools) < 2 {
		t.Fatalf("the line has %d tools; the test needs two", len(tools))
	}
	body["tools"] = tools[:len(tools)-1]
	b, _ := json.Marshal(in)
	return string(b)
}

// TestBatchInputOfOtherDataIsRefused: an input is judged only on the data it was prepared from, and
// every request tells. A variant leaves some files as they were, so an input whose first request
// of a level comes from such a file once slipped through (judged on the builtin data, its right
// answers counted wrong); now the first request that differs is named, as file:line, wherever it
// is, and an input of the loaded data passes whole.
func TestBatchInputOfOtherDataIsRefused(t *testing.T) {
	l3 := Config{Levels: []string{Level3}}
	native1 := Config{Levels: []string{"level-1-given-desc"}, Form: Native, Limit: 12}
	builtin3, variant3 := batchInputOn(t, 0, l3), batchInputOn(t, 7, l3)
	builtin1 := batchInputOn(t, 0, native1)
	if len(builtin3) != len(variant3) || len(builtin3) < 3 {
		t.Fatalf("level 3: %d requests from the builtin data, %d from variant 7", len(builtin3), len(variant3))
	}
	var differ []int // the lines (from 1) that variant 7 asks otherwise
	for i := range builtin3 {
		if asksOf(t, builtin3[i]) != asksOf(t, variant3[i]) {
			differ = append(differ, i+1)
		}
	}
	if len(differ) == 0 {
		t.Fatal("variant 7 asks every level-3 request as the builtin data does: the test needs one it changes")
	}
	// spliced is the builtin input with one request, line n, as variant 7 asks it.
	spliced := func(n int) []string {
		s := slices.Clone(builtin3)
		s[n-1] = variant3[n-1]
		return s
	}
	last := differ[len(differ)-1]
	edited := slices.Clone(builtin1)
	edited[len(edited)-1] = withoutATool(t, edited[len(edited)-1])
	for _, tt := range []struct {
		name  string
		seed  int64 // the data the input is judged on
		input []string
		line  int // the line named in the refusal (0: none)
	}{
		{"the builtin data's input on it", 0, builtin3, 0},
		{"variant 7's input on it", 7, variant3, 0},
		{"variant 7's input on the builtin data", 0, variant3, differ[0]},
		{"the builtin data's input on variant 7", 7, builtin3, differ[0]},
		{"one request of variant 7, the last it changes", 0, spliced(last), last},
		{"a native request with a tool left out", 0, edited, len(edited)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			input := []byte(strings.Join(tt.input, "\n") + "\n")
			_, _, err := ScoreBatch(context.Background(), onData(t, tt.seed), BatchFile{"in.jsonl", input}, BatchFile{"out.jsonl", nil}, BatchFile{}, "", nil)
			want := fmt.Sprintf("in.jsonl:%d: ", tt.line)
			switch {
			case tt.line == 0 && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.line != 0 && (err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "prepared from other data")):
				t.Fatalf("error %v; want one naming %s and other data", err, want)
			}
		})
	}
}
