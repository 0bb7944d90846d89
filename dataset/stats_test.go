package dataset

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/apibank-playground/apibank/protocol"
)

// TestStatsCountsStylesAndKinds: the builtin data has every style and every special kind.
func TestStatsCountsStylesAndKinds(t *testing.T) {
	d, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	st := Stats(d)
	for _, s := range protocol.Styles {
		if st.Styles[s] == 0 {
			t.Errorf("no %s call turn: %v", s, st.Styles)
		}
	}
	for _, k := range protocol.Specials {
		if st.Specials[k] == 0 {
			t.Errorf("no %s special case: %v", k, st.Specials)
		}
	}
	sum := 0
	for _, n := range st.Specials {
		sum += n
	}
	if sum != st.SpecialCases {
		t.Errorf("special kinds sum to %d, special cases %d", sum, st.SpecialCases)
	}
}

// TestBuiltinStatsFresh: builtin.stats is what counting dataset/builtin finds today, and Stats of the
// builtin data answers it; Stats of any other data (a copy of the same files) counts.
func TestBuiltinStatsFresh(t *testing.T) {
	files, err := ReadFS(os.DirFS("builtin"), ".")
	if err != nil {
		t.Fatal(err)
	}
	want, err := StatsText(files)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(builtinStats, want) {
		t.Fatal("builtin.stats is stale: run `go generate ./dataset`")
	}
	d, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if got, counted := Stats(d), Count(d); !reflect.DeepEqual(got, counted) {
		t.Fatalf("Stats(builtin) = %+v, counting finds %+v", got, counted)
	}
	delete(files, "lv1-lv2-samples/level-1-given-desc/"+d.Dialogues()[0].File) // other data: counted, one dialogue fewer
	other, _, err := LoadRepaired("copy", files)
	if err != nil {
		t.Fatal(err)
	}
	if got := Stats(other); got.Dialogues != Stats(d).Dialogues-1 {
		t.Fatalf("Stats of other data = %d dialogues, want %d", got.Dialogues, Stats(d).Dialogues-1)
	}
}
