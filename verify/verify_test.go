package verify

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/dataset"
	"github.com/apibank-playground/apibank/tools"
)

// world is a tiny world of our own for these tests.
func world(t *testing.T) map[string][]byte {
	t.Helper()
	return map[string][]byte{
		"init_database/Account.json": []byte(`{"mira": {"password": "kite42", "token": "tok123", "email": "mira@mail.com"}}`),
		"init_database/Alarm.json":   []byte(`{}`),
	}
}

func load(t *testing.T, dialogue string) (*dataset.Data, []dataset.LineError) {
	t.Helper()
	files := dataset.Files{}
	for k, v := range world(t) {
		files[k] = v
	}
	files["lv1-lv2-samples/level-1-given-desc/d.jsonl"] = []byte(dialogue)
	d, errs, err := dataset.Load("test", files)
	if err != nil {
		t.Fatal(err)
	}
	return d, errs
}

const (
	ask   = `{"role": "User", "text": "Log me in as Mira, password kite42, and set an alarm for April 2nd 2023 at 6:30am."}`
	login = `{"role": "API", "api_name": "GetUserToken", "param_dict": {"username": "mira", "password": "kite42"}, "result": {"api_name": "GetUserToken", "input": {"username": "mira", "password": "kite42"}, "output": {"token": "tok123"}, "exception": null}}`
	ok    = `{"role": "AI", "text": "Done."}`
	alarm = `{"role": "API", "api_name": "AddAlarm", "param_dict": {"token": "tok123", "time": "2023-04-02 06:30:00"}, "result": {"api_name": "AddAlarm", "input": {"token": "tok123", "time": "2023-04-02 06:30:00"}, "output": "success", "exception": null}}`
)

// delAlarm deletes the alarm that alarm adds.
const delAlarm = `{"role": "API", "api_name": "DeleteAlarm", "param_dict": {"token": "tok123", "time": "2023-04-02 06:30:00"}, "result": {"api_name": "DeleteAlarm", "input": {"token": "tok123", "time": "2023-04-02 06:30:00"}, "output": "success", "exception": null}}`

// parallel marks an API turn as made in the same turn as the one before it.
func parallel(turn string) string {
	return strings.Replace(turn, `"param_dict"`, `"parallel": true, "param_dict"`, 1)
}

func TestRun(t *testing.T) {
	tests := []struct {
		name      string
		lines     []string
		failCheck string // "" = all pass
		why       string
	}{
		{"clean", []string{ask, login, ok, alarm, ok}, "", ""},
		{"ends with a call", []string{ask, login}, Format, "ends with an API turn"},
		{"starts with the AI", []string{ok, ask, login, ok}, Format, "starts with a User turn"},
		{"unknown parameter", []string{ask, strings.Replace(login, `"password": "kite42"}, "result"`, `"password": "kite42", "otp": "1"}, "result"`, 1), ok}, Format, `no parameter "otp"`},
		{"wrong recorded output", []string{ask, strings.Replace(login, `{"token": "tok123"}`, `{"token": "tok999"}`, 1), ok}, Execution, "replayed output"},
		{"invented value", []string{`{"role": "User", "text": "Log me in please, password kite42."}`, login, ok}, Grounding, `username="mira"`},
		{"invented time", []string{ask, login, ok, strings.ReplaceAll(alarm, "06:30:00", "07:15:00"), ok}, Grounding, "2023-04-02 07:15:00"},
		{"derived time", []string{`{"role": "Meta", "derived": [{"value": "2023-04-02 07:15:00", "rule": "45 minutes after 6:30"}]}`, ask, login, ok, strings.ReplaceAll(alarm, "06:30:00", "07:15:00"), ok}, "", ""},
		{"an independent parallel set", []string{ask, login, alarm, parallel(alarm), ok}, "", ""},
		// Deleting the alarm the same turn adds it: in the reverse order the deletion finds nothing.
		{"a parallel set that depends on its order", []string{ask, login, alarm, parallel(delAlarm), ok}, Execution, "depends on the order of its calls"},
		{"parallel not a boolean", []string{ask, login, strings.Replace(alarm, `"param_dict"`, `"parallel": "yes", "param_dict"`, 1), ok}, Format, `"parallel" must be true or false`},
		{"a parallel turn after a non-API turn", []string{ask, login, ok, parallel(alarm), ok}, Format, "must follow the API turn"},
		{"a wrong_value case", []string{`{"role": "Meta", "special": "wrong_value", "line": 3}`, ask, `{"role": "AI", "text": "Is 6:30am right?"}`, login, ok}, "", ""},
		{"an unknown special kind", []string{`{"role": "Meta", "special": "bad_value", "line": 3}`, ask, `{"role": "AI", "text": "Sure?"}`, login, ok}, Format, "wrong_value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs := load(t, strings.Join(tt.lines, "\n"))
			r := Run(d, errs, nil)
			if tt.failCheck == "" {
				if !r.OK {
					t.Fatalf("want all checks to pass, got %+v", r.Failures)
				}
				return
			}
			found := false
			for _, f := range r.Failures {
				if f.Check == tt.failCheck && strings.Contains(f.Why, tt.why) {
					found = true
					if f.File == "" {
						t.Errorf("failure without a file: %+v", f)
					}
				}
			}
			if !found || r.OK {
				t.Fatalf("want a %s failure containing %q, got %+v", tt.failCheck, tt.why, r.Failures)
			}
		})
	}
}

// TestCoverage: the coverage check reports shortfalls against the targets.
func TestCoverage(t *testing.T) {
	d, errs := load(t, strings.Join([]string{ask, login, ok, alarm, ok}, "\n"))
	r := Run(d, errs, &PaperTargets)
	if r.OK || r.Checks[Coverage].Failed == 0 {
		t.Fatalf("a one-dialogue dataset must fail coverage: %+v", r.Checks)
	}
	uses := ToolUses(d)
	if uses[tools.APIs.Name+"/GetUserToken"] != 1 || uses[tools.APIs.Name+"/AddAlarm"] != 1 {
		t.Errorf("ToolUses = %v", uses)
	}
}
