package variant

import (
	"testing"

	"github.com/apibank-playground/apibank/dataset"
)

func TestName(t *testing.T) {
	if Name("builtin", 0) != "builtin" || Name("builtin", 42) != "builtin~s42" {
		t.Errorf("Name: %q %q", Name("builtin", 0), Name("builtin", 42))
	}
}

func TestDigest(t *testing.T) {
	files := dataset.Files{"a.jsonl": []byte("x")}
	m := []Move{{Kind: KindName, From: "Ana", To: "Noa"}}
	a := digest(1, 0, 0, m, nil, files)
	for _, other := range []string{
		digest(2, 0, 0, m, nil, files),
		digest(1, 7, 0, m, nil, files),
		digest(1, 0, 2, m, nil, files),
		digest(1, 0, 0, []Move{{Kind: KindName, From: "Ana", To: "Ivo"}}, nil, files),
		digest(1, 0, 0, m, []Unchanged{{Path: "a.jsonl"}}, files),
		digest(1, 0, 0, m, nil, dataset.Files{"a.jsonl": []byte("xy")}),
	} {
		if other == a {
			t.Errorf("two variants, one digest %s", a)
		}
	}
	if digest(1, 0, 0, m, nil, files) != a {
		t.Errorf("digest is not deterministic")
	}
}

func TestShares(t *testing.T) {
	r := &Report{Files: []FileReport{{Moved: 2}, {Moved: 0}, {Unchanged: true}, {Moved: 1}}}
	if m, u := r.Shares(); m != 2 || u != 1 {
		t.Errorf("Shares = %d, %d", m, u)
	}
}
