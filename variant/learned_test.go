package variant

import (
	"bytes"
	"maps"
	"testing"
)

// TestBuiltinLearnedFresh: builtin.learned is what Learn finds in the builtin data today (run
// `go generate ./variant` after editing the data; make does it with the pack).
func TestBuiltinLearnedFresh(t *testing.T) {
	want, err := Learn(builtinFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(builtinLearned, want) {
		t.Fatal("variant/builtin.learned is stale: run go generate ./variant")
	}
	if learned(builtinLearned, builtinFiles(t)) == nil {
		t.Fatal("builtin.learned does not name the builtin data's files")
	}
}

// TestLearnedMakesTheSameVariants: a variant made from what the build learned is byte for byte the
// one made from the data read whole, seed by seed.
func TestLearnedMakesTheSameVariants(t *testing.T) {
	files := builtinFiles(t)
	fromLearned := learned(builtinLearned, files)
	fromData := learn(parse(files))
	for _, seed := range append(seeds, 3, 5, 7, 9, 11, 1000) {
		a, ra, err := makeFrom(files, seed, fromLearned)
		if err != nil {
			t.Fatal(err)
		}
		b, rb, err := makeFrom(files, seed, fromData)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.EqualFunc(a, b, bytes.Equal) || ra.Digest != rb.Digest {
			t.Fatalf("seed %d: the learned discovery makes another variant", seed)
		}
	}
}

// TestLearnedOtherFiles: what was learned from the builtin data is not used for other files (a file
// more, a file of another size), nor when it does not parse.
func TestLearnedOtherFiles(t *testing.T) {
	files := builtinFiles(t)
	more := maps.Clone(files)
	more["lv1-lv2-samples/level-1-given-desc/extra.jsonl"] = []byte("{}\n")
	longer := maps.Clone(files)
	for p, b := range longer {
		longer[p] = append(bytes.Clone(b), ' ')
		break
	}
	for name, c := range map[string]struct {
		b     []byte
		files map[string][]byte
	}{
		"a file more":        {builtinLearned, more},
		"a longer file":      {builtinLearned, longer},
		"not JSON":           {[]byte("{"), files},
		"nothing learned":    {nil, files},
		"another data's key": {bytes.Replace(builtinLearned, []byte(`"key":"`), []byte(`"key":"x`), 1), files},
	} {
		if learned(c.b, c.files) != nil {
			t.Errorf("%s: learned", name)
		}
	}
}

// TestJoined: a list learned as one text reads back as the same set, and a member that one text
// cannot hold (empty, or with a line break) is named.
func TestJoined(t *testing.T) {
	for _, tc := range []struct {
		list []string
		bad  string
	}{
		{nil, ""},
		{[]string{"Ann"}, ""},
		{[]string{"Ann", "Ben Okafor", "x@y.org"}, ""},
		{[]string{"Ann", ""}, `""`},
		{[]string{"two\nlines", "Ann"}, `"two\nlines"`},
	} {
		var bad string
		text := joined(tc.list, &bad)
		if bad != tc.bad {
			t.Errorf("joined(%q) names %s, want %s", tc.list, bad, tc.bad)
		}
		if tc.bad == "" && !maps.Equal(setOf(text), set(tc.list)) {
			t.Errorf("setOf(joined(%q)) = %v", tc.list, setOf(text))
		}
	}
}
