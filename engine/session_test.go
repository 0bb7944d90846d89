package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/protocol"
)

// do sends a request and decodes the response.
func do(t *testing.T, s *Session, req string) protocol.Response {
	t.Helper()
	var r protocol.Response
	out := s.Handle([]byte(req))
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("response to %s is not JSON: %v\n%s", req, err, out)
	}
	return r
}

func TestHandleErrors(t *testing.T) {
	s := New()
	tests := []struct {
		name, req, code, contains string
	}{
		{"not JSON", `{"v":1,`, "bad_request", "not a JSON object"},
		{"wrong version", `{"v":2,"op":"hello"}`, "bad_request", "version 2"},
		{"missing op", `{"v":1}`, "bad_request", "missing op"},
		{"unknown op", `{"v":1,"op":"frobnicate"}`, "bad_request", `unknown op "frobnicate"`},
		{"unknown catalog", `{"v":1,"op":"catalog","catalog":"nope"}`, "bad_request", "unknown catalog"},
		{"load without files", `{"v":1,"op":"load"}`, "bad_request", "needs files"},
		{"load of a wrong folder", `{"v":1,"op":"load","files":{"notes/readme.txt":"hi"}}`, "bad_request", "no API-Bank data found"},
		{"dialogue not found", `{"v":1,"op":"dialogue","file":"nope.jsonl"}`, "not_found", "nope.jsonl"},
		{"prompt without sample", `{"v":1,"op":"prompt","file":"x.jsonl"}`, "bad_request", "missing sample"},
		{"call without call", `{"v":1,"op":"call"}`, "bad_request", "missing call"},
		{"call without a call in it", `{"v":1,"op":"call","call":"hello there"}`, "bad_request", "no call found"},
		{"bad state", `{"v":1,"op":"score","preds":"","state":"sideways"}`, "bad_request", "fresh or replay"},
		{"bad form", `{"v":1,"op":"replay","form":"xml"}`, "bad_request", "text or native"},
		{"fill without files", `{"v":1,"op":"fill"}`, "bad_request", "needs files"},
		{"unknown form on prompt", `{"v":1,"op":"prompt","file":"x.jsonl","sample":0,"form":"yaml"}`, "bad_request", `must be text or native, not "yaml"`},
		{"unknown form on any op", `{"v":1,"op":"hello","form":"Native"}`, "bad_request", `not "Native"`},
		{"form not a text", `{"v":1,"op":"replay","form":1}`, "bad_request", `"form" must be a string`},
		{"score_lines without stream", `{"v":1,"op":"score_lines","lines":""}`, "bad_request", "missing stream"},
		{"score_lines of no stream", `{"v":1,"op":"score_lines","stream":99,"lines":""}`, "not_found", "no scoring stream 99"},
		{"score_finish of no stream", `{"v":1,"op":"score_finish","stream":3}`, "not_found", "no scoring stream 3"},
		{"stream not an integer", `{"v":1,"op":"score_lines","stream":"1"}`, "bad_request", `"stream" must be an integer`},
		{"line not an integer", `{"v":1,"op":"rouge_lines","lines":"","line":1.5}`, "bad_request", `"line" must be an integer`},
		{"lines not a text", `{"v":1,"op":"rouge_lines","lines":["a"]}`, "bad_request", `"lines" must be a string`},
		{"trailing data", `{"v":1,"op":"hello"} x`, "bad_request", "unexpected data after the JSON value"},
		{"body on an op without lines", "{\"v\":1,\"op\":\"hello\"}\nraw", "bad_request", `op "hello" takes no body`},
		{"lines and a body", "{\"v\":1,\"op\":\"rouge_lines\",\"lines\":\"a\"}\nb", "bad_request", "given twice"},
		{"parts without a body", `{"v":1,"op":"load","parts":[{"path":"a.json","size":1}]}`, "bad_request", "no body follows"},
		{"parts that miss the body's size", "{\"v\":1,\"op\":\"load\",\"parts\":[{\"path\":\"a.json\",\"size\":5}]}\nab", "bad_request", "announce 5 bytes but the body has 2"},
		{"files and a body", "{\"v\":1,\"op\":\"load\",\"files\":{\"a\":\"b\"},\"parts\":[{\"path\":\"a.json\",\"size\":2}]}\nab", "bad_request", "files are given twice"},
		{"a part that is no part", `{"v":1,"op":"fill","parts":[{"path":"a.json","size":-1}]}`, "bad_request", `parts[0] must be {"path": text, "size": bytes}`},
		{"score_start bad state", `{"v":1,"op":"score_start","state":"sideways"}`, "bad_request", "fresh or replay"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, s, tt.req)
			if r.OK || r.Error == nil || r.Error.Code != tt.code || !strings.Contains(r.Error.Message, tt.contains) {
				t.Errorf("got ok=%v error=%+v; want %s containing %q", r.OK, r.Error, tt.code, tt.contains)
			}
		})
	}
}

// TestStreamLimit: at most protocol.MaxStreams scoring streams are open at once; finishing one
// makes room, and a load drops them all.
func TestStreamLimit(t *testing.T) {
	s := New()
	for i := 0; i < protocol.MaxStreams; i++ {
		if r := do(t, s, `{"v":1,"op":"score_start"}`); !r.OK {
			t.Fatalf("stream %d: %+v", i+1, r.Error)
		}
	}
	if r := do(t, s, `{"v":1,"op":"score_start"}`); r.OK || !strings.Contains(r.Error.Message, "finish one") {
		t.Fatalf("stream %d opened: %+v", protocol.MaxStreams+1, r)
	}
	if r := do(t, s, `{"v":1,"op":"score_finish","stream":1}`); !r.OK {
		t.Fatal(r.Error)
	}
	if r := do(t, s, `{"v":1,"op":"score_start"}`); !r.OK {
		t.Fatalf("no room after a finish: %+v", r.Error)
	}
	if r := do(t, s, `{"v":1,"op":"load","builtin":true}`); !r.OK {
		t.Fatal(r.Error)
	}
	if r := do(t, s, `{"v":1,"op":"score_lines","stream":2,"lines":""}`); r.OK || r.Error.Code != "not_found" {
		t.Fatalf("a stream survived a load: %+v", r)
	}
}

// TestBuiltinIsLazy: a new session builds the builtin data only when a request needs it; a load of
// a folder first never builds it, and the builtin data still answers when asked for.
func TestBuiltinIsLazy(t *testing.T) {
	s := New()
	if s.data != nil {
		t.Fatal("New built the builtin data")
	}
	draft := `{"role":"User","text":"What is 2+2?"}` + "\n" + `{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}}` + "\n" + `{"role":"AI","text":"4."}`
	req, _ := json.Marshal(map[string]any{"v": 1, "op": "load", "name": "tiny", "files": map[string]string{"level-1-given-desc/calc.jsonl": draft}})
	if r := do(t, s, string(req)); !r.OK {
		t.Fatal(r.Error)
	}
	if s.data == nil || s.data.Name != "tiny" {
		t.Fatalf("data after load: %+v", s.data)
	}
	fresh := New()
	r := do(t, fresh, `{"v":1,"op":"hello"}`)
	if !r.OK || !strings.Contains(mustJSON(r.Result), `"data":"builtin"`) {
		t.Fatalf("hello of a new session: %+v", r)
	}
}

// inChild reports whether the test runs in a child process of its own, first running it in one (and
// failing when the child does) when it does not: for tests of what a process builds once.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv("APIBANK_TEST_CHILD") == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "APIBANK_TEST_CHILD="+t.Name())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return false
}

// TestLoadBuildsNoBuiltin: a session that loads a folder of its own and scores in it never builds
// the builtin data, not even to compare with it. It runs in a child process of its own: the builtin
// data is built once a process, and other tests build it.
func TestLoadBuildsNoBuiltin(t *testing.T) {
	if !inChild(t) {
		return
	}
	s := New()
	draft := `{"role":"User","text":"What is 2+2?"}` + "\n" + `{"role":"API","api_name":"Calculator","param_dict":{"formula":"2+2"},"result":{"api_name":"Calculator","input":{"formula":"2+2"},"output":4.0,"exception":null}}` + "\n" + `{"role":"AI","text":"4."}`
	req, _ := json.Marshal(map[string]any{"v": 1, "op": "load", "name": "tiny", "files": map[string]string{"level-1-given-desc/calc.jsonl": draft}})
	for _, r := range []string{string(req), `{"v":1,"op":"score_start"}`,
		`{"v":1,"op":"score_lines","stream":1,"lines":"{\"file\":\"calc.jsonl\",\"id\":0,\"pred\":\"[Calculator(formula='2+2')]\"}"}`,
		`{"v":1,"op":"score_finish","stream":1}`} {
		if resp := s.Handle([]byte(r)); !bytes.Contains(resp, []byte(`"ok":true`)) {
			t.Fatalf("%s: %s", r, resp)
		}
	}
	if dataset.BuiltinBuilt() {
		t.Fatal("loading and scoring a folder of its own built the builtin data")
	}
}

// TestOnePredictionParsesOneFile: a session that scores one prediction of the builtin data parses the
// dialogues of that prediction's file and no other file (most of a one-prediction run's start-up was
// parsing all 342 dialogues and 52 scenes); validate then parses them all and finds no problem. In
// a child process, as the builtin data is parsed once a process.
func TestOnePredictionParsesOneFile(t *testing.T) {
	if !inChild(t) {
		return
	}
	const file = "acct-agenda-add-28.jsonl"
	s := New()
	for _, r := range []string{`{"v":1,"op":"score_start"}`,
		`{"v":1,"op":"score_lines","stream":1,"lines":"{\"level\":\"level-1-given-desc\",\"file\":\"` + file + `\",\"id\":0,\"pred\":\"[GetUserToken(username='PriyaSharma', password='Monsoon@19')]\"}"}`,
		`{"v":1,"op":"score_finish","stream":1}`} {
		if resp := s.Handle([]byte(r)); !bytes.Contains(resp, []byte(`"ok":true`)) || bytes.Contains(resp, []byte(`"error"`)) {
			t.Fatalf("%s: %s", r, resp)
		}
	}
	d, err := dataset.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if n, want := d.ParsedOnUse(), len(d.File(file)); n != want || want == 0 {
		t.Fatalf("scoring one prediction of %s parsed %d dialogues, want %d", file, n, want)
	}
	r := do(t, s, `{"v":1,"op":"validate"}`)
	var v protocol.Validation
	if err := json.Unmarshal([]byte(mustJSON(r.Result)), &v); !r.OK || err != nil {
		t.Fatalf("validate: %+v %v", r, err)
	}
	if !v.OK || len(v.Failures) > 0 || v.Checks["format"].Passed == 0 {
		t.Fatalf("validate of the builtin data: ok %v, checks %v, failures %v", v.OK, v.Checks, v.Failures)
	}
	if n := d.ParsedOnUse(); n != len(d.Dialogues())+len(d.Scenes()) {
		t.Errorf("validate parsed %d files of %d dialogues and %d scenes", n, len(d.Dialogues()), len(d.Scenes()))
	}
}

func TestIDEchoed(t *testing.T) {
	r := do(t, New(), `{"v":1,"id":"req-7","op":"hello"}`)
	if !r.OK || string(r.ID) != `"req-7"` {
		t.Fatalf("id not echoed: %+v", r)
	}
}

// TestPanicRecovered: a panic inside an op (here: a session whose data has no world) is answered as
// an internal error, and the same session keeps working afterwards.
func TestPanicRecovered(t *testing.T) {
	s := &Session{data: &dataset.Data{Name: "broken"}}
	r := do(t, s, `{"v":1,"op":"world"}`)
	if r.OK || r.Error == nil || r.Error.Code != "internal" {
		t.Fatalf("want an internal error, got %+v", r)
	}
	if r := do(t, s, `{"v":1,"op":"load","builtin":true}`); !r.OK {
		t.Fatalf("load after a panic failed: %+v", r.Error)
	}
	if r := do(t, s, `{"v":1,"op":"stats"}`); !r.OK {
		t.Fatalf("stats after recovery failed: %+v", r.Error)
	}
}

// TestSandbox: calls change the session's world, reset restores it, and two sessions never share it.
func TestSandbox(t *testing.T) {
	a, b := New(), New()
	tok := sandboxToken(t, a)
	add := `{"v":1,"op":"call","call":"[AddAlarm(token='` + tok + `', time='2023-05-01 06:30:00')]"}`
	if r := do(t, a, add); !r.OK {
		t.Fatalf("AddAlarm: %+v", r.Error)
	}
	alarms := func(s *Session) string {
		r := do(t, s, `{"v":1,"op":"world","databases":["Alarm"]}`)
		b, _ := json.Marshal(r.Result)
		return string(b)
	}
	if !strings.Contains(alarms(a), "2023-05-01 06:30:00") {
		t.Fatalf("the alarm is not in session a's world: %s", alarms(a))
	}
	if strings.Contains(alarms(b), "2023-05-01 06:30:00") {
		t.Fatalf("session b sees session a's alarm")
	}
	if r := do(t, a, `{"v":1,"op":"reset"}`); !r.OK {
		t.Fatalf("reset: %+v", r.Error)
	}
	if strings.Contains(alarms(a), "2023-05-01 06:30:00") {
		t.Fatalf("reset did not restore the initial world")
	}
}

// TestSandboxReadsAsTheJudge: a text call in the sandbox means what it means to the judge of the loaded
// data: over our data, a list written as a Python literal reaches the world as a list, just as the same
// call in the native form does.
func TestSandboxReadsAsTheJudge(t *testing.T) {
	forms := []struct{ name, call string }{
		{"text", `[AddMeeting(token='%s', meeting_topic='Sync', start_time='2023-05-01 10:00:00', end_time='2023-05-01 11:00:00', location='Room 1', attendees=['Ana', 'Bo'])]`},
		{"native", `{"name":"AddMeeting","arguments":{"token":"%s","meeting_topic":"Sync","start_time":"2023-05-01 10:00:00","end_time":"2023-05-01 11:00:00","location":"Room 1","attendees":["Ana","Bo"]}}`},
	}
	worlds := map[string]string{}
	for _, f := range forms {
		s := New()
		tok := sandboxToken(t, s)
		r := do(t, s, `{"v":1,"op":"call","call":`+quote(strings.Replace(f.call, "%s", tok, 1))+`}`)
		if !r.OK {
			t.Fatalf("%s: %+v", f.name, r.Error)
		}
		var res protocol.CallResult
		if err := json.Unmarshal([]byte(mustJSON(r.Result)), &res); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(res.Args), `"attendees":["Ana","Bo"]`) || res.Error != "" {
			t.Errorf("%s: the call's arguments as read are %s (error %q), want attendees as a list", f.name, res.Args, res.Error)
		}
		w := do(t, s, `{"v":1,"op":"world","databases":["Meeting"]}`)
		var world struct {
			Databases struct {
				Meeting map[string]struct {
					Topic     string `json:"meeting_topic"`
					Attendees any    `json:"attendees"`
				}
			}
		}
		if err := json.Unmarshal([]byte(mustJSON(w.Result)), &world); err != nil {
			t.Fatal(err)
		}
		for _, m := range world.Databases.Meeting {
			if m.Topic == "Sync" {
				worlds[f.name] = mustJSON(m.Attendees)
			}
		}
	}
	if worlds["text"] != `["Ana","Bo"]` || worlds["native"] != worlds["text"] {
		t.Errorf("the meeting's attendees in the world: text %s, native %s; want both [\"Ana\",\"Bo\"]", worlds["text"], worlds["native"])
	}
}

// sandboxToken logs in the first account of the builtin world through the sandbox.
func sandboxToken(t *testing.T, s *Session) string {
	t.Helper()
	r := do(t, s, `{"v":1,"op":"world","databases":["Account"]}`)
	var w struct {
		Databases struct {
			Account map[string]struct{ Password, Token string }
		}
	}
	b, _ := json.Marshal(r.Result)
	if err := json.Unmarshal(b, &w); err != nil || len(w.Databases.Account) == 0 {
		t.Fatalf("no accounts in the builtin world: %v %s", err, b)
	}
	for name, acct := range w.Databases.Account {
		call := `{"v":1,"op":"call","call":{"name":"GetUserToken","arguments":{"username":` + quote(name) + `,"password":` + quote(acct.Password) + `}}}`
		r := do(t, s, call)
		if !r.OK {
			t.Fatalf("GetUserToken: %+v", r.Error)
		}
		if !strings.Contains(mustJSON(r.Result), acct.Token) {
			t.Fatalf("GetUserToken did not return the token: %s", mustJSON(r.Result))
		}
		return acct.Token
	}
	return ""
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestScoreLineErrors: malformed prediction lines are reported with their line numbers, the rest is
// scored.
func TestScoreLineErrors(t *testing.T) {
	s := New()
	preds := strings.Join([]string{
		`{"file": "nope.jsonl", "id": 0, "pred": "[GetToday()]"}`,
		`not json at all`,
		`{"id": 0, "pred": "x"}`,
		`{"file": "a.jsonl", "id": -1, "pred": "x"}`,
	}, "\n")
	req, _ := json.Marshal(map[string]any{"v": 1, "op": "score", "preds": preds})
	r := do(t, s, string(req))
	if !r.OK {
		t.Fatalf("score: %+v", r.Error)
	}
	var b struct {
		Errors []struct {
			Line    int
			Message string
		}
	}
	raw, _ := json.Marshal(r.Result)
	_ = json.Unmarshal(raw, &b)
	want := map[int]string{1: "no dialogue file", 2: "not JSON", 3: `missing "file"`, 4: "non-negative"}
	if len(b.Errors) != len(want) {
		t.Fatalf("errors = %+v, want one for each of lines 1-4", b.Errors)
	}
	for _, e := range b.Errors {
		if !strings.Contains(e.Message, want[e.Line]) {
			t.Errorf("line %d: %q, want it to contain %q", e.Line, e.Message, want[e.Line])
		}
	}
}

func TestRouge(t *testing.T) {
	r := do(t, New(), `{"v":1,"op":"rouge","pairs":[{"ref":"the cat is on the mat","hyp":"the cat sat on the mat"},{"ref":"x","hyp":""}]}`)
	if !r.OK {
		t.Fatal(r.Error)
	}
	got := mustJSON(r.Result)
	want := `[{"f":0.7999999950000002},{"error":"Hypothesis is empty."}]`
	if got != want {
		t.Errorf("rouge = %s, want %s", got, want)
	}
}

func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		`{"v":1,"op":"hello"}`,
		`{"v":1,"op":"call","call":"[GetToday()]"}`,
		`{"v":1,"op":"call","call":{"name":"Calculator","arguments":{"formula":"(1+2)*3"}}}`,
		`{"v":1,"op":"score","preds":"{\"file\":\"x\",\"id\":0,\"pred\":\"[A(b='c')]\"}"}`,
		`{"v":1,"op":"rouge","pairs":[{"ref":"a. b","hyp":"b"}]}`,
		`{"v":1,"op":"load","files":{"init_database/Account.json":"{}"}}`,
		`{"v":1,"op":"world","databases":["Alarm"]}`,
		`{"v":1,"op":"prompt","file":"x","sample":0}`,
		`{"v":1,"op":"score_start","level":"level-1-given-desc"}`,
		`{"v":1,"op":"score_lines","stream":1,"lines":"{\"file\":\"x\",\"id\":0,\"pred\":\"y\"}\r\n{bad","line":3}`,
		`{"v":1,"op":"score_finish","stream":1}`,
		`{"v":1,"op":"rouge_lines","lines":"{\"ref\":\"a\",\"hyp\":\"a\"}\n[]\n","name":"p"}`,
		"{\"v\":1,\"op\":\"rouge_lines\",\"name\":\"p\"}\n{\"ref\":\"a\",\"hyp\":\"a\"}\n[]\n",
		"{\"v\":1,\"op\":\"score_lines\",\"stream\":1,\"line\":3}\r\n{\"file\":\"x\",\"id\":0,\"pred\":\"y\"}\n{bad",
		`{"v":1,"op":"prompt","file":"x","sample":0,"form":"yaml"}`,
		`[]`, `null`, `{"v":1,"op":"fill","files":{"level-1-given-desc/a.jsonl":"{\"role\":\"User\",\"text\":\"x\"}"}}`,
	} {
		f.Add([]byte(seed))
	}
	s := New()
	f.Fuzz(func(t *testing.T, req []byte) {
		out := s.Handle(req)
		head := out // an answer in the lines form: the envelope is its first line
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			head = out[:i]
		}
		var r protocol.Response
		if err := json.Unmarshal(head, &r); err != nil {
			t.Fatalf("response is not JSON: %v\n%s", err, out)
		}
		if r.V != protocol.Version || r.OK == (r.Error != nil) {
			t.Fatalf("malformed response %s", out)
		}
		if r.Error != nil && r.Error.Code == "internal" {
			t.Fatalf("internal error (a recovered panic) for %q: %s", req, r.Error.Message)
		}
	})
}

// TestLoadParts: a folder sent as parts in the body loads exactly as the same files sent as JSON
// texts, and a trailing line break after a request without a body changes nothing.
func TestLoadParts(t *testing.T) {
	files := map[string]string{
		"level-1-given-desc/calc.jsonl": `{"role": "User", "text": "What is 2*3?"}` + "\n" +
			`{"role": "API", "api_name": "Calculator", "param_dict": {"formula": "2*3"}, "result": {"api_name": "Calculator", "input": {"formula": "2*3"}, "output": 6.0, "exception": null}}` + "\n" +
			`{"role": "AI", "text": "6"}` + "\n",
		"level-1-given-desc/bad.jsonl": "{oops\n\n",
	}
	viaFiles, _ := json.Marshal(map[string]any{"v": 1, "op": "load", "name": "tiny", "files": files})
	var parts []map[string]any
	var body []byte
	for _, p := range []string{"level-1-given-desc/bad.jsonl", "level-1-given-desc/calc.jsonl"} {
		parts = append(parts, map[string]any{"path": p, "size": len(files[p])})
		body = append(body, files[p]...)
	}
	head, _ := json.Marshal(map[string]any{"v": 1, "op": "load", "name": "tiny", "parts": parts})
	viaParts := append(append(head, '\n'), body...)
	want := string(New().Handle(viaFiles))
	if !strings.Contains(want, `"ok":true`) {
		t.Fatalf("load of files failed: %s", want)
	}
	if got := string(New().Handle(viaParts)); got != want {
		t.Fatalf("load of parts = %s\nload of files = %s", got, want)
	}
	if got := string(New().Handle(append(viaFiles, '\n'))); got != want {
		t.Fatalf("load of files with a trailing line break = %s", got)
	}
}
