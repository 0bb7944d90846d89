package call

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apibank-playground/apibank/value"
)

// TestLiteralFind: under Literal a text call's values are read as Python reads literals; text that
// does not read as Python is read as Regex reads it (reading says which reading gave the call).
func TestLiteralFind(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		args    string // JSON of the argument map
		reading Reading
	}{
		{"single quotes", `[A(x='a b')]`, `{"x":"a b"}`, Literal},
		{"double quotes hold an apostrophe", `[A(content="Dinner with Arjun's parents")]`, `{"content":"Dinner with Arjun's parents"}`, Literal},
		{"escaped apostrophe", `[A(content='Dinner with Arjun\'s parents')]`, `{"content":"Dinner with Arjun's parents"}`, Literal},
		{"escaped double quote", `[A(c="say \"hi\"")]`, `{"c":"say \"hi\""}`, Literal},
		{"nested quotes of the other kind", `[A(x="it's", y='"quoted"')]`, `{"x":"it's","y":"\"quoted\""}`, Literal},
		{"backslash", `[A(p='C:\\dir')]`, `{"p":"C:\\dir"}`, Literal},
		{"line break and tab escapes", `[A(t='a\nb\tc')]`, `{"t":"a\nb\tc"}`, Literal},
		{"unicode escapes", `[A(t='caf\u00e9 \U0001F600 \ud83d\ude00')]`, `{"t":"café 😀 😀"}`, Literal},
		{"hex and octal escapes", `[A(t='\x41\101\0')]`, `{"t":"AA\u0000"}`, Literal},
		{"an unknown escape is kept", `[A(t='\d+ \N{DASH}')]`, `{"t":"\\d+ \\N{DASH}"}`, Literal},
		{"raw string", `[A(t=r'\d+\'')]`, `{"t":"\\d+\\'"}`, Literal},
		{"triple quotes", `[A(t='''it's "q"''')]`, `{"t":"it's \"q\""}`, Literal},
		{"adjacent strings are joined", `[A(t='a' "b" 'c')]`, `{"t":"abc"}`, Literal},
		{"empty strings", `[A(x='', y="", z='''''')]`, `{"x":"","y":"","z":""}`, Literal},
		{"numbers", `[A(n=5, f=0.5, neg=-2, e=1e3, h=0x1F, u=1_000, z=0)]`, `{"n":5,"f":0.5,"neg":-2,"e":1000.0,"h":31,"u":1000,"z":0}`, Literal},
		{"True, False, None", `[A(on=True, off=False, z=None)]`, `{"on":true,"off":false,"z":null}`, Literal},
		{"lists", `[M(who=['Ana', "Bo's"], n=[1, [2, 3]], e=[], t=['x',])]`, `{"who":["Ana","Bo's"],"n":[1,[2,3]],"e":[],"t":["x"]}`, Literal},
		{"a dict", `[M(d={'k': 'v', 1: [True]}, e={})]`, `{"d":{"k":"v","1":[true]},"e":{}}`, Literal},
		{"a )] inside a string", `[A(x='a)]b', y='c')]`, `{"x":"a)]b","y":"c"}`, Literal},
		{"an unquoted word keeps the original's reading", `[A(token=abc123, n=007)]`, `{"token":"abc123","n":"007"}`, Literal},
		{"spaces, lines and a trailing comma", "[A(\n  x = '1',\n  y='2',\n)]", `{"x":"1","y":"2"}`, Literal},
		{"text around the call", `Sure: [A(x='1')] is the call.`, `{"x":"1"}`, Literal},
		{"a later duplicate overwrites", `[G(a='1', b='2', a='3')]`, `{"a":"3","b":"2"}`, Literal},
		{"no arguments", `[GetToday()]`, `{}`, Literal},
		{"first call of a list", `[A(x="it's"), B(y='2')]`, `{"x":"it's"}`, Literal},
		// Not Python: the original's reading.
		{"unterminated quote", `[A(x='abc)]`, `{}`, Regex},
		{"apostrophe unescaped in single quotes", `[A(x='it's')]`, `{"x":"it"}`, Regex},
		{"a positional argument", `[A('x', y='1')]`, `{"y":"1"}`, Regex},
		{"an expression", `[A(date=2023-03-01)]`, `{"date":"2023"}`, Regex},
		{"a bad hex escape", `[A(x='\x4')]`, `{"x":"\\x4"}`, Regex},
		{"nesting too deep", "[A(x=" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + ")]", `{"x":"` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `"}`, Regex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := Literal.Find(tt.in)
			if !ok {
				t.Fatalf("Literal.Find(%q) found no call", tt.in)
			}
			if got := string(value.Marshal(c.Args)); got != tt.args || c.Reading != tt.reading || c.Form != Text {
				t.Errorf("Literal.Find(%q) = %s (%s, %s); want %s (%s)", tt.in, got, c.Reading, c.Form, tt.args, tt.reading)
			}
			if tt.reading == Regex {
				// Not Python: exactly what the original's reading gives.
				want, _ := Find(tt.in)
				if c.Raw != want.Raw || !value.Equal(c.Args, want.Args) {
					t.Errorf("Literal.Find(%q) fell back to %s %s, Find gives %s %s", tt.in, c.Raw, value.Marshal(c.Args), want.Raw, value.Marshal(want.Args))
				}
			}
		})
	}
	// No call under either reading (a line break inside single quotes is not Python, and the original
	// needs a call on one line).
	for _, in := range []string{"no call here", "[A(x='1'", "", "[A(x='a\nb')]"} {
		if c, ok := Literal.Find(in); ok {
			t.Errorf("Literal.Find(%q) found %+v", in, c)
		}
	}
	if c, ok := Literal.Find(`{"name": "A", "arguments": {"x": 1}}`); !ok || c.Form != Native {
		t.Errorf("Literal.Find of a native call = %+v, %v", c, ok)
	}
}

// TestLiteralRaw: a call's Raw is its text as written when it is alone in its brackets, else the call
// in brackets of its own.
func TestLiteralRaw(t *testing.T) {
	for in, want := range map[string]string{
		"ok [A(x='1') ] done":          "[A(x='1') ]",
		"[A(x='a)]'), B()]":            "[A(x='a)]')]",
		"[A(x=\"it's\")] [B(y='2')]\n": `[A(x="it's")]`,
	} {
		if c, ok := Literal.Find(in); !ok || c.Raw != want {
			t.Errorf("Literal.Find(%q).Raw = %q, want %q", in, c.Raw, want)
		}
	}
}

// TestLiteralFindAll: every call of a text list read as Python; text that does not read as Python
// gives what FindAll (the original's reading) gives.
func TestLiteralFindAll(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // each call's name and JSON arguments
	}{
		{"a list", `[A(c="Arjun's"), B(y='')]`, []string{`A{"c":"Arjun's"}`, `B{"y":""}`}},
		{"brackets and parentheses in strings", `[A(x='a, b)'), B(y=[1, 2])]`, []string{`A{"x":"a, b)"}`, `B{"y":[1,2]}`}},
		{"bracketed calls one after another", `[A(x='1')] [B(y="it's")]`, []string{`A{"x":"1"}`, `B{"y":"it's"}`}},
		{"on lines, a trailing comma", "[A(x='1'),\n B(y='2'),\n]", []string{`A{"x":"1"}`, `B{"y":"2"}`}},
		{"one call", `[A(x='')]`, []string{`A{"x":""}`}},
		{"not Python: the original's reading", `[A(x='it's'), B(y='2')]`, nil},
		{"a '[' that starts no call: the original's reading", `[A(x='1')] [1]`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, ok := Literal.FindAll(tt.in)
			if tt.want == nil {
				want, wantOK := FindAll(tt.in)
				if ok != wantOK || len(cs) != len(want) {
					t.Fatalf("Literal.FindAll(%q) = %d calls, FindAll %d", tt.in, len(cs), len(want))
				}
				for i := range cs {
					if cs[i].Reading != Regex || !value.Equal(cs[i].Args, want[i].Args) {
						t.Errorf("call %d = %s, FindAll gives %s", i, value.Marshal(cs[i].Args), value.Marshal(want[i].Args))
					}
				}
				return
			}
			if !ok || len(cs) != len(tt.want) {
				t.Fatalf("Literal.FindAll(%q) = %d calls, want %d", tt.in, len(cs), len(tt.want))
			}
			for i, c := range cs {
				if got := c.Name + string(value.Marshal(c.Args)); got != tt.want[i] || c.Reading != Literal {
					t.Errorf("call %d = %s (%s), want %s (literal)", i, got, c.Reading, tt.want[i])
				}
			}
			if len(cs) > 1 && !Literal.Several(tt.in) {
				t.Errorf("Literal.Several(%q) = false, but Literal.FindAll found %d calls", tt.in, len(cs))
			}
		})
	}
}

// TestReadingRegexIsFind: the Regex reading is the package's Find, FindAll and Several.
func TestReadingRegexIsFind(t *testing.T) {
	for _, in := range []string{`[A(x="it's", y='')]`, `[A(x='1'), B(y='2')]`, "[A(x='1')] and [B(y='2')]", "no call"} {
		c, ok := Regex.Find(in)
		want, wantOK := Find(in)
		if ok != wantOK || ok && (c.Raw != want.Raw || !value.Equal(c.Args, want.Args) || c.Reading != Regex) {
			t.Errorf("Regex.Find(%q) = %+v, Find = %+v", in, c, want)
		}
		cs, _ := Regex.FindAll(in)
		wantAll, _ := FindAll(in)
		if len(cs) != len(wantAll) || Regex.Several(in) != Several(in) {
			t.Errorf("Regex.FindAll(%q) = %d calls, FindAll %d", in, len(cs), len(wantAll))
		}
	}
	if ReadingFor(true) != Literal || ReadingFor(false) != Regex {
		t.Error("ReadingFor: our data is read as Python, the original's as the original reads it")
	}
}

// TestFinderLiteral: a Finder with the Literal reading finds what Literal.Find finds, call after call.
func TestFinderLiteral(t *testing.T) {
	f := Finder{Reading: Literal}
	for _, in := range []string{`[A(x="it's")]`, "[A(x='it's')]", `{"name": "N", "arguments": {}}`, `[A(n=1), B()]`, "none", `[A(x=[1, 'a'])]`} {
		got, ok := f.Find(in)
		want, wantOK := Literal.Find(in)
		if ok != wantOK {
			t.Fatalf("Finder.Find(%q) found %v, Literal.Find %v", in, ok, wantOK)
		}
		if ok && (got.Name != want.Name || got.Raw != want.Raw || got.Reading != want.Reading || string(value.Marshal(got.Args)) != string(value.Marshal(want.Args))) {
			t.Errorf("Finder.Find(%q) = %s %s; Literal.Find gives %s %s", in, got.Raw, value.Marshal(got.Args), want.Raw, value.Marshal(want.Args))
		}
	}
}

// TestFormatLiteral: a call written by FormatLiteral reads back under Literal as exactly its values.
func TestFormatLiteral(t *testing.T) {
	args := value.MapOf("content", "Dinner with Arjun's parents", "quote", `say "hi"`, "both", `it's "x"`, "empty", "",
		"lines", "a\nb\\c", "n", int64(-3), "f", 0.25, "on", true, "none", nil,
		"who", []any{"Ana", "Bo's"}, "d", value.MapOf("k", []any{int64(1)}))
	text := FormatLiteral("AddAgenda", args)
	want := `[AddAgenda(content="Dinner with Arjun's parents", quote='say "hi"', both='it\'s "x"', empty='', lines='a\nb\\c', n=-3, f=0.25, on=True, none=None, who=['Ana', "Bo's"], d={'k': [1]})]`
	if text != want {
		t.Errorf("FormatLiteral = %s\nwant %s", text, want)
	}
	c, ok := Literal.Find(text)
	if !ok || c.Reading != Literal || string(value.Marshal(c.Args)) != string(value.Marshal(args)) {
		t.Errorf("Literal.Find(FormatLiteral(...)) = %s, want %s", value.Marshal(c.Args), value.Marshal(args))
	}
}

// FuzzLiteral: Literal.Find never panics and finds a complete call; a text Python's repr writes reads
// back as itself; whenever Literal.FindAll finds several calls, Literal.Several says so.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{`[A(x="it's", y='')]`, `[A(x='\u00e9\x41'), B(n=-1.5e3)]`, "[A(x='''a\nb''')]", `[A(x=r'\'')]`,
		`[A(d={'a': [1, {'b': None}]})]`, "[A(x='1'" + strings.Repeat("[", 200), "[a(" + strings.Repeat("x='", 1000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, ok := Literal.Find(s); ok && (c == nil || c.Name == "" || c.Args == nil) {
			t.Fatalf("Literal.Find(%q) returned an incomplete call %+v", s, c)
		}
		if cs, _ := Literal.FindAll(s); len(cs) > 1 && !Literal.Several(s) {
			t.Errorf("Literal.Several(%q) = false, Literal.FindAll found %d calls", s, len(cs))
		}
		if !utf8.ValidString(s) {
			return
		}
		c, ok := Literal.Find(FormatLiteral("A", value.MapOf("x", s)))
		if !ok || c.Reading != Literal {
			t.Fatalf("the text form of %q does not read as Python", s)
		}
		if got, _ := c.Args.Get("x"); got != s {
			t.Errorf("the text form of %q reads back as %q", s, got)
		}
	})
}
