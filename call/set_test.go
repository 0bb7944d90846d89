package call

import (
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// TestFindAll: the calls of a prediction for a gold call set, in both forms; one call, or text that
// is not a well-formed sequence, gives what Find gives.
func TestFindAll(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // each call as Format writes it (native: name and JSON arguments)
		form Form
	}{
		{"text list", "[A(x='1'), B(y='2')]", []string{"[A(x='1')]", "[B(y='2')]"}, Text},
		{"text list, spaces and a line break", "[A(x='1') ,\n  B(y='2')]", []string{"[A(x='1')]", "[B(y='2')]"}, Text},
		{"three calls of one tool", "[Q(c='AAPL', d='2023-03-29'), Q(c='TSM', d='2023-03-29'), Q(c='MSFT', d='1')]",
			[]string{"[Q(c='AAPL', d='2023-03-29')]", "[Q(c='TSM', d='2023-03-29')]", "[Q(c='MSFT', d='1')]"}, Text},
		{"values with commas, brackets and parentheses", "[Calc(f='(1+2)*3'), Mail(to='a@b.com', body='Hi, (all) ]')]",
			[]string{"[Calc(f='(1+2)*3')]", "[Mail(to='a@b.com', body='Hi, (all) ]')]"}, Text},
		{"a list value", "[M(who=['Ana', 'Bo'], t='x'), N()]", []string{"[M(who='['Ana', 'Bo']', t='x')]", "[N()]"}, Text},
		{"bracketed calls one after another", "[A(x='1')] [B(y='2')]", []string{"[A(x='1')]", "[B(y='2')]"}, Text},
		{"bracketed calls on lines, with a comma", "[A(x='1')],\n[B(y='2')]", []string{"[A(x='1')]", "[B(y='2')]"}, Text},
		{"text around the list", "Sure: [A(x='1'), B(y='2')] done.", []string{"[A(x='1')]", "[B(y='2')]"}, Text},
		{"one text call", "[A(x='1')]", []string{"[A(x='1')]"}, Text},
		{"not a sequence: Find's leftmost match", "[A(x='1')] and [B(y='2')]", []string{"[A(x='1', y='2')]"}, Text},
		{"unclosed list: Find's match", "[A(x='1'), B(y='2'", []string{}, Text},
		{"native list", `[{"name":"A","arguments":{"x":1}},{"name":"B","arguments":"{\"y\":\"2\"}"}]`, []string{`A{"x":1}`, `B{"y":"2"}`}, Native},
		{"tool_calls message", `{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"A","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"B","arguments":"{\"y\":true}"}}]}`,
			[]string{`A{}`, `B{"y":true}`}, Native},
		{"one native call", `{"name":"A","arguments":{"x":"1"}}`, []string{`A{"x":"1"}`}, Native},
		{"a list of one", "```json\n[{\"name\":\"A\",\"arguments\":{}}]\n```", []string{`A{}`}, Native},
		{"a bad element: the first call, as Find reads it", `[{"name":"A","arguments":{}},{"nom":"B"}]`, []string{`A{}`}, Native},
		{"no call", "I'd rather ask first.", nil, Text},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, ok := FindAll(tt.in)
			if len(tt.want) == 0 {
				if ok {
					t.Fatalf("FindAll(%q) found %d calls, want none", tt.in, len(cs))
				}
				return
			}
			if !ok || len(cs) != len(tt.want) {
				t.Fatalf("FindAll(%q) = %d calls (%v), want %d", tt.in, len(cs), ok, len(tt.want))
			}
			for i, c := range cs {
				got := Format(c.Name, c.Args)
				if c.Form == Native {
					got = c.Name + string(value.Marshal(c.Args))
				}
				if got != tt.want[i] || c.Form != tt.form {
					t.Errorf("call %d = %s (%s), want %s (%s)", i, got, c.Form, tt.want[i], tt.form)
				}
			}
		})
	}
}

// TestFindAllKeepsFind: for one call, FindAll's call is Find's, raw text included (parity).
func TestFindAllKeepsFind(t *testing.T) {
	for _, in := range []string{"[A(x='1')]", "x [A(x='1', y=[1, 2])] y", `{"name":"A","arguments":{"x":[1]}}`, "[A(x='it's')]"} {
		c, _ := Find(in)
		cs, ok := FindAll(in)
		if !ok || len(cs) != 1 || cs[0].Raw != c.Raw || !value.Equal(cs[0].Args, c.Args) {
			t.Errorf("FindAll(%q) = %+v, Find = %+v", in, cs, c)
		}
	}
}

// TestSeveral never says no where FindAll finds several calls (it is the scorer's cheap test before
// FindAll), and says no for plain single calls.
func TestSeveral(t *testing.T) {
	for _, in := range []string{"[A(x='1'), B(y='2')]", "[A(x='1')] [B()]", "[A(x='1')]", "[A(f='(1+2)*3')]", "no call",
		`[{"name":"A","arguments":{}},{"name":"B","arguments":{}}]`, `{"name":"A","arguments":{}}`, "[A(x='1')] and [B(y='2')]",
		"[A(x='1'), B(y=", "[A(x='1'),\n B(y='2')]", "[x] [A(x='1'), B()]"} {
		cs, _ := FindAll(in)
		if len(cs) > 1 && !Several(in) {
			t.Errorf("Several(%q) = false, but FindAll found %d calls", in, len(cs))
		}
	}
	for _, in := range []string{"[A(x='1')]", "[A(f='(1+2)*3', g='x,y')]", "no call", `{"name":"A","arguments":{"x":"1"}}`, "[A(x='1')] and [B(y='2')]"} {
		if Several(in) {
			t.Errorf("Several(%q) = true for one call", in)
		}
	}
}

// FuzzFindAll: FindAll never panics, and whenever it finds several calls Several says so.
func FuzzFindAll(f *testing.F) {
	for _, s := range []string{"[A(x='1'), B(y='2')]", "[A(x='1')] [B()]", "[A(x=')'), B(y='(')]", `[{"name":"A"},{"name":"B"}]`, "[A(x=['a', 'b'), B()]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, _ := FindAll(s)
		if len(cs) > 1 && !Several(s) {
			t.Errorf("Several(%q) = false, FindAll found %d calls", s, len(cs))
		}
	})
}
