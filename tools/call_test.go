package tools

import (
	"errors"
	"math"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// echoCatalog holds one tool that returns "ok", or raises "boom" when its s argument is "raise": its
// envelopes show what a call made of the arguments.
func echoCatalog() *Catalog {
	echo := &Tool{
		Name: "Echo",
		Params: []Param{
			{Name: "n", Type: "int", Required: true},
			{Name: "x", Type: "float"},
			{Name: "flag", Type: "bool"},
			{Name: "s", Type: "str"},
			{Name: "extra", Type: "str", Loose: true},
		},
		run: func(c *Ctx, in *value.Map) (any, error) {
			if s, _ := in.Get("s"); s == "raise" {
				return nil, fail("boom")
			}
			return "ok", nil
		},
	}
	return newCatalog("test", []*Tool{echo})
}

// TestCall: a call converts its arguments by declared type, fills the optional ones it lacks with
// None (a loose one stays absent), and raises the original's errors for a bad name, a bad type or a
// missing argument; an exception inside the tool becomes the envelope's.
func TestCall(t *testing.T) {
	cat := echoCatalog()
	tests := []struct {
		name   string
		tool   string
		native bool
		args   *value.Map
		input  map[string]any // the envelope's input; a key mapped to absent must not be there
		exc    any
		kind   Kind
		err    string
	}{
		{"text int, optional ones None", "Echo", false, value.MapOf("n", "12"),
			map[string]any{"n": int64(12), "x": nil, "flag": nil, "s": nil, "extra": absent{}}, nil, "", ""},
		{"every type from text", "Echo", false, value.MapOf("n", "12", "x", "2.50", "flag", "True", "s", "t", "extra", "e"),
			map[string]any{"n": int64(12), "x": 2.5, "flag": true, "s": "t", "extra": "e"}, nil, "", ""},
		{"bool is only the text True", "Echo", false, value.MapOf("n", "1", "flag", "true"),
			map[string]any{"flag": false}, nil, "", ""},
		{"a JSON bool counts only natively", "Echo", false, value.MapOf("n", "1", "flag", true),
			map[string]any{"flag": false}, nil, "", ""},
		{"native values", "Echo", true, value.MapOf("n", int64(7), "x", int64(2), "flag", true),
			map[string]any{"n": int64(7), "x": 2.0, "flag": true}, nil, "", ""},
		{"int() of a float truncates", "Echo", true, value.MapOf("n", 2.9),
			map[string]any{"n": int64(2)}, nil, "", ""},
		{"the tool raises", "Echo", false, value.MapOf("n", "1", "s", "raise"),
			map[string]any{"s": "raise"}, "boom", "", ""},
		{"int text with a dot", "Echo", false, value.MapOf("n", "1.5"), nil, nil, Assertion, "invalid parameter type. parameter: 1.5"},
		{"float text with two dots", "Echo", false, value.MapOf("n", "3", "x", "1.2.3"), nil, nil, Assertion, "invalid parameter type."},
		{"int() of a list", "Echo", true, value.MapOf("n", []any{}), nil, nil, Type,
			"int() argument must be a string, a bytes-like object or a real number, not 'list'"},
		{"int() of NaN", "Echo", true, value.MapOf("n", math.NaN()), nil, nil, Value, "cannot convert float NaN or infinity to integer"},
		{"float() of None", "Echo", true, value.MapOf("n", int64(1), "x", nil), nil, nil, Type,
			"float() argument must be a string or a real number, not 'NoneType'"},
		{"a required argument missing", "Echo", false, value.MapOf("x", "1"), nil, nil, Type,
			"Echo.call() missing 1 required positional argument: 'n'"},
		{"an unknown parameter", "Echo", false, value.MapOf("n", "1", "y", "2"), nil, nil, Assertion, "invalid parameter name. parameter: y"},
		{"an unknown tool", "Nope", false, value.MapOf(), nil, nil, Plain, "invalid tool name."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call := cat.Call
			if tt.native {
				call = cat.CallNative
			}
			env, err := call(NewBase(nil).NewWorld(), tt.tool, tt.args)
			if tt.err != "" {
				var e *Error
				if !errors.As(err, &e) || e.Kind != tt.kind || e.Text != tt.err {
					t.Fatalf("error %v (%T), want %s %q", err, err, tt.kind, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if name, _ := env.Get("api_name"); name != "Echo" {
				t.Errorf("api_name %v, want Echo", name)
			}
			if exc, _ := env.Get("exception"); exc != tt.exc {
				t.Errorf("exception %v, want %v", exc, tt.exc)
			}
			in, _ := env.Get("input")
			inMap, ok := in.(*value.Map)
			if !ok {
				t.Fatalf("input %v is not a map", in)
			}
			for k, want := range tt.input {
				got, has := inMap.Get(k)
				if _, gone := want.(absent); gone {
					if has {
						t.Errorf("input[%s] = %v, want it absent", k, got)
					}
					continue
				}
				if !has || !value.Equal(got, want) {
					t.Errorf("input[%s] = %v (present %v), want %v", k, got, has, want)
				}
			}
		})
	}
}

// absent marks an input key a call must leave out.
type absent struct{}

// TestMissingText is Python's wording for one, two and more missing arguments.
func TestMissingText(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"token"}, "T.call() missing 1 required positional argument: 'token'"},
		{[]string{"token", "time"}, "T.call() missing 2 required positional arguments: 'token' and 'time'"},
		{[]string{"a", "b", "c"}, "T.call() missing 3 required positional arguments: 'a', 'b', and 'c'"},
	}
	for _, tt := range tests {
		if got := missingText("T", tt.names); got != tt.want {
			t.Errorf("missingText(%v) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

// TestParseFloat reads decimal digits of any script, as Python's float() does.
func TestParseFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		err  bool
	}{
		{"2.5", 2.5, false},
		{"10", 10, false},
		{".5", 0.5, false},
		{"\u0663.\u0665", 3.5, false}, // Arabic-Indic ٣.٥
		{"\u0967\u0968", 12, false},   // Devanagari १२
		{"\uff17", 7, false},          // fullwidth ７
		{"\u00b2", 0, true},           // superscript two: a digit to isdigit, not to float()
		{"1e3", 0, true},
	}
	for _, tt := range tests {
		got, err := parseFloat(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("parseFloat(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}
