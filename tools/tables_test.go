package tools

import (
	"testing"

	"github.com/apibank-playground/apibank/value"
)

// TestHarvest: the Dictionary and Translate tables come from the successful recorded calls — a
// keyword normalised as the tool normalises it, a translation keyed by target language code and
// exact text, the first answer kept — and a table the world already has is left alone.
func TestHarvest(t *testing.T) {
	ok := func(out any) *value.Map { return value.MapOf("output", out, "exception", nil) }
	raised := value.MapOf("output", nil, "exception", "network down")
	calls := []Recorded{
		{Tool: "Dictionary", Params: value.MapOf("keyword", " Apple_Pie "), Result: ok("a sweet dish")},
		{Tool: "Dictionary", Params: value.MapOf("keyword", "apple pie"), Result: ok("a later answer")},
		{Tool: "Dictionary", Params: value.MapOf("keyword", "storm"), Result: raised},
		{Tool: "Dictionary", Params: value.MapOf("keyword", int64(3)), Result: ok("not a keyword")},
		{Tool: "Translate", Params: value.MapOf("src", "Hello", "tgt_lang", "Spanish"), Result: ok("Hola")},
		{Tool: "Translate", Params: value.MapOf("src", "Hallo"), Result: ok("Hello")},
		{Tool: "Translate", Params: value.MapOf("src", "Hello", "tgt_lang", "Klingon"), Result: ok("nuqneH")},
		{Tool: "Translate", Params: value.MapOf("src", "Bye", "tgt_lang", "es"), Result: raised},
		{Tool: "Calculator", Params: value.MapOf("formula", "1+1"), Result: ok(2.0)},
	}
	wantDict := value.MapOf("apple pie", "a sweet dish")
	wantTr := value.MapOf("es", value.MapOf("Hello", "Hola"), "en", value.MapOf("Hallo", "Hello"))
	own := value.MapOf("word", "our own")
	tests := []struct {
		name     string
		dbs      map[string]any
		calls    []Recorded
		added    bool
		dict, tr any // nil: no such table afterwards
	}{
		{"both tables from the calls", map[string]any{}, calls, true, wantDict, wantTr},
		{"a table the world has is kept", map[string]any{"Dictionary": own}, calls, true, own, wantTr},
		{"no successful call adds nothing", map[string]any{}, calls[2:4], false, nil, nil},
		{"no calls", map[string]any{}, nil, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Harvest(tt.dbs, tt.calls); got != tt.added {
				t.Errorf("Harvest reported %v, want %v", got, tt.added)
			}
			for name, want := range map[string]any{"Dictionary": tt.dict, "Translate": tt.tr} {
				got, has := tt.dbs[name]
				if want == nil {
					if has {
						t.Errorf("%s table %s, want none", name, value.Marshal(got))
					}
					continue
				}
				if !value.Equal(got, want) {
					t.Errorf("%s table %s, want %s", name, value.Marshal(got), value.Marshal(want))
				}
			}
		})
	}
}
