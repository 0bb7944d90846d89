package call

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

func TestExtract(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"[GetToday()]", "[GetToday()]", true},
		{"Sure. [AddAlarm(token='x', time='2023-03-01 07:00:00')] done", "[AddAlarm(token='x', time='2023-03-01 07:00:00')]", true},
		{"[A(x='1')] and [B(y='2')]", "[A(x='1')] and [B(y='2')]", true},
		{"[Name (x='1')]", "", false},
		{"[ Name(x='1')]", "", false},
		{"[Name(x='1') ]", "", false},
		{"[skip] then [Name(x='1')]", "[Name(x='1')]", true},
		{"[Name(x='1'\n)]", "", false},
		{"first line\n[Name(x='1')]\n[Other(y='2')]", "[Name(x='1')]", true},
		{"API-Request: [Ünïcode_1(x='1')]", "[Ünïcode_1(x='1')]", true},
		{"no call", "", false},
	}
	for _, tt := range tests {
		got, ok := Extract(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Extract(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		name string
		args string // JSON of the argument map
	}{
		{"[A(x='1')] and [B(y='2')]", "A", `{"x":"1","y":"2"}`},
		{`[S(content="He said 'hi'")]`, "S", `{"content":"He said "}`},
		{`[S(subject='it''s')]`, "S", `{"subject":"it"}`},
		{`[C(formula="it's")]`, "C", `{"formula":"it"}`},
		{`[S(x='', y='2')]`, "S", `{"x":"', y="}`},
		{`[S(x='')]`, "S", `{}`},
		{`[S(x="")]`, "S", `{}`},
		{`[S(y=3.5)]`, "S", `{"y":"3"}`},
		{`[S(z=-1)]`, "S", `{}`},
		{`[S(on=True)]`, "S", `{"on":"True"}`},
		{`[M(attendees=['John', 'Mary'])]`, "M", `{"attendees":"['John', 'Mary']"}`},
		{`[M(a=[1], b=[2])]`, "M", `{"a":"[1], b=[2]"}`},
		{`[M(attendees='['John', 'Mary']')]`, "M", `{"attendees":"["}`},
		{`[GetToday()]`, "GetToday", `{}`},
		{`[G(username = 'a', password = "b")]`, "G", `{"username":"a","password":"b"}`},
		{`[G(a='1', b='2', a='3')]`, "G", `{"a":"3","b":"2"}`},
	}
	for _, tt := range tests {
		c, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if got := string(value.Marshal(c.Args)); c.Name != tt.name || got != tt.args {
			t.Errorf("Parse(%q) = %s %s; want %s %s", tt.in, c.Name, got, tt.name, tt.args)
		}
	}
	if _, err := Parse("nothing"); err != ErrNoCall {
		t.Errorf("Parse without a call: err = %v, want ErrNoCall", err)
	}
}

func TestFindNative(t *testing.T) {
	tests := []struct {
		in   string
		name string
		args string
		form Form
		ok   bool
	}{
		{`{"name": "AddAlarm", "arguments": {"token": "x", "time": "2023-03-01 07:00:00"}}`, "AddAlarm", `{"token":"x","time":"2023-03-01 07:00:00"}`, Native, true},
		{`{"name": "AddAlarm", "arguments": "{\"token\": \"x\"}"}`, "AddAlarm", `{"token":"x"}`, Native, true},
		{"```json\n{\"name\": \"GetToday\", \"arguments\": {}}\n```", "GetToday", `{}`, Native, true},
		{`{"tool_calls": [{"type": "function", "function": {"name": "Q", "arguments": "{\"n\": 2}"}}]}`, "Q", `{"n":2}`, Native, true},
		{`[{"name": "Q", "arguments": {"l": ["a", "b"]}}]`, "Q", `{"l":["a","b"]}`, Native, true},
		{`{"name": "Q", "arguments": "not json"}`, "", "", "", false},
		{`[Q(a='1')]`, "Q", `{"a":"1"}`, Text, true},
		{`{"nothing": 1}`, "", "", "", false},
	}
	for _, tt := range tests {
		c, ok := Find(tt.in)
		if ok != tt.ok {
			t.Errorf("Find(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if got := string(value.Marshal(c.Args)); c.Name != tt.name || got != tt.args || c.Form != tt.form {
			t.Errorf("Find(%q) = %s %s %s; want %s %s %s", tt.in, c.Name, got, c.Form, tt.name, tt.args, tt.form)
		}
	}
}

func TestFormat(t *testing.T) {
	args := value.MapOf("token", "abc", "attendees", []any{"John", "Mary"}, "n", int64(2))
	want := `[AddMeeting(token='abc', attendees='['John', 'Mary']', n='2')]`
	if got := Format("AddMeeting", args); got != want {
		t.Errorf("Format = %s, want %s", got, want)
	}
}

// FuzzFind: Find never panics and a call it finds is complete. The seeds include texts of hundreds of
// KB whose every position is a candidate start (see TestScannerLongLines).
func FuzzFind(f *testing.F) {
	for _, s := range []string{"[A(x='1')]", `{"name":"A","arguments":{}}`, "[A(x=[1], y='2')]", "", "[(", "```json\n[]\n```",
		strings.Repeat("[a(", 100_000), "[A(" + strings.Repeat("x=[", 100_000) + ")]", "[Calculator(formula='" + strings.Repeat("9", 300_000) + "+1')]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := Find(s)
		if ok && (c == nil || c.Name == "" || c.Args == nil) {
			t.Fatalf("Find(%q) returned an incomplete call %+v", s, c)
		}
		if raw, ok := Extract(s); ok {
			if _, err := Parse(raw); err != nil {
				t.Fatalf("Parse(Extract(%q)) failed: %v", s, err)
			}
		}
	})
}

// TestFinderMatchesFind: one Finder finding call after call gives what Find gives for each (name,
// form, raw text, arguments), text and native calls and outputs without a call in turn.
func TestFinderMatchesFind(t *testing.T) {
	outputs := []string{
		"[A(x='1')] and [B(y='2')]", `[S(content="He said 'hi'")]`, `[S(x='', y='2')]`, "no call here",
		`[M(a=[1], b=[2])]`, "[A(x = \t 'v', y=w z=3.5)]", `{"name": "N", "arguments": {"k": 1}}`,
		"[A(x='a\nb')]", "[A(é_1 = 'ü', ２=３)]", "[A(x=)] [B(y='1')]", "[A(a='1', b='2', c='3', d='4', e='5', a='6')]",
		"text [A(x='1') more )] end", "[[A(x)]", "```json\n{\"name\": \"J\", \"arguments\": {}}\n```", "[A()]", "",
	}
	var f Finder
	for _, out := range outputs {
		want, wantOK := Find(out)
		got, ok := f.Find(out)
		if ok != wantOK {
			t.Fatalf("Finder.Find(%q) found %v, Find %v", out, ok, wantOK)
		}
		if !ok {
			continue
		}
		if got.Name != want.Name || got.Form != want.Form || got.Raw != want.Raw || string(value.Marshal(got.Args)) != string(value.Marshal(want.Args)) {
			t.Errorf("Finder.Find(%q) = %s %s %q %s; Find gives %s %s %q %s", out, got.Name, got.Form, got.Raw, value.Marshal(got.Args),
				want.Name, want.Form, want.Raw, value.Marshal(want.Args))
		}
	}
}
