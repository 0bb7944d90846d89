package tools

import (
	"strings"
	"sync"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

var (
	fuzzBaseOnce sync.Once
	fuzzBaseVal  *Base
)

// fuzzBase is the original's databases when ../shared is there, else an empty world (the tools
// still run every path that does not need records).
func fuzzBase() *Base {
	fuzzBaseOnce.Do(func() {
		dbs, err := readInitDatabases(homeShared)
		if err != nil {
			dbs = nil
		}
		fuzzBaseVal = NewBase(dbs)
	})
	return fuzzBaseVal
}

// fuzzTools is every tool of both catalogs, in a fixed order.
func fuzzTools() []struct {
	cat  *Catalog
	tool *Tool
} {
	var out []struct {
		cat  *Catalog
		tool *Tool
	}
	for _, c := range []*Catalog{APIs, LV3} {
		for _, t := range c.Tools() {
			out = append(out, struct {
				cat  *Catalog
				tool *Tool
			}{c, t})
		}
	}
	return out
}

// fuzzSeedTool returns the index of a tool in fuzzTools.
func fuzzSeedTool(cat *Catalog, name string) uint16 {
	for i, ct := range fuzzTools() {
		if ct.cat == cat && ct.tool.Name == name {
			return uint16(i)
		}
	}
	panic("no tool " + name)
}

// FuzzCall runs a tool (chosen by the first input) with every parameter set to the fuzzed text, in
// text form and as a native JSON value when the text is one: a call answers an envelope or an *Error,
// never panics, and its correctness check runs on the result against itself. Calculator formulas
// are also compared with the literal list-rebuilding evaluator. The seeds include inputs of hundreds
// of KB (a Calculator formula, sums, a search query, meeting attendees), which every tool must take
// in time linear in their size.
func FuzzCall(f *testing.F) {
	big := func(s string, n int) string { return strings.Repeat(s, n/len(s)) }
	seeds := []struct {
		cat  *Catalog
		tool string
		arg  string
	}{
		{APIs, "Calculator", "(1+2)*3"},
		{APIs, "Calculator", "-1+2"},
		{APIs, "Calculator", big("9", 200_000) + "+1"},
		{APIs, "Calculator", big("1+", 300_000) + "1"},
		{APIs, "Calculator", big("(7)*", 200_000) + "(1+1)"},
		{APIs, "AddAlarm", "2023-03-20 07:00:00"},
		{APIs, "SearchEngine", big("what is the weather ", 300_000)},
		{APIs, "ToolSearcher", big("alarm meeting ", 300_000)},
		{APIs, "AddMeeting", "['" + big("Ana', '", 200_000) + "Bo']"},
		{APIs, "Translate", big("é ", 200_000)},
		{LV3, "MovieRecommendations", big("x", 200_000)},
		{LV3, "TaxCalculator", big("9", 200_000)},
	}
	for _, s := range seeds {
		f.Add(fuzzSeedTool(s.cat, s.tool), s.arg)
	}
	all := fuzzTools()
	f.Fuzz(func(t *testing.T, which uint16, arg string) {
		ct := all[int(which)%len(all)]
		args := []*value.Map{value.NewMap(len(ct.tool.Params))}
		for _, p := range ct.tool.Params {
			args[0].Set(p.Name, arg)
		}
		if v, err := value.DecodeString(arg); err == nil {
			native := value.NewMap(len(ct.tool.Params))
			for _, p := range ct.tool.Params {
				native.Set(p.Name, v)
			}
			args = append(args, native)
		}
		for i, a := range args {
			call := ct.cat.Call
			if i == 1 {
				call = ct.cat.CallNative
			}
			env, err := call(fuzzBase().NewWorld(), ct.tool.Name, a)
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("%s(%.80q): error %T %v, want an envelope or *Error", ct.tool.Name, arg, err, err)
				}
				continue
			}
			if env == nil {
				t.Fatalf("%s(%.80q): no envelope and no error", ct.tool.Name, arg)
			}
			self, _ := value.Clone(env).(*value.Map)
			// The check may raise (*Error, as the original's checks do); it must not panic.
			_, _ = ct.tool.Check(env, self)
		}
		if ct.tool.Name == "Calculator" && len(arg) <= 4096 {
			got, gotErr := calculate(arg)
			want, wantErr := calcListCalculate(arg)
			if !calcSame(got, gotErr, want, wantErr) {
				t.Fatalf("calculate(%q) = %v, %v; the literal evaluator gives %v, %v", arg, got, gotErr, want, wantErr)
			}
		}
	})
}
