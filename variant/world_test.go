package variant

import (
	"strings"
	"testing"

	"github.com/apibank-playground/apibank/value"
)

func TestMembers(t *testing.T) {
	text := []byte("{\n  \"a\": {\"x\": 12650.0},\n  \"b\": [1, 2]\n}\n")
	ms, closing, err := members(text)
	if err != nil || len(ms) != 2 || text[closing] != '}' {
		t.Fatalf("members = %v %d %v", ms, closing, err)
	}
	if got := string(text[ms[0].start:ms[0].end]); got != `{"x": 12650.0}` || ms[1].key != "b" {
		t.Errorf("member texts: %q, %q", got, ms[1].key)
	}
}

func TestWorldCopies(t *testing.T) {
	p := &plan{by: map[string]int{}, taken: map[string]bool{}, pinned: map[string]bool{}}
	p.add(KindUsername, "AmaraOkafor", "KemalSarkar", fold)
	p.add(KindToken, "tok123abc", "xyz987qwe", exact)
	r := newReplacer(p.moves)
	account := []byte("{\n  \"AmaraOkafor\": {\"token\": \"tok123abc\", \"balance\": 12.0},\n  \"LiWei\": {\"token\": \"other\"}\n}\n")
	out, n := worldCopies("Account", account, p, r)
	v, err := value.Decode(out)
	if err != nil || n != 1 {
		t.Fatalf("copies %d, %v: %s", n, err, out)
	}
	db := v.(*value.Map)
	if !db.Has("AmaraOkafor") || !db.Has("LiWei") || !db.Has("KemalSarkar") {
		t.Errorf("the world lost or lacks a record: %s", out)
	}
	if !strings.Contains(string(out), `"KemalSarkar": {"token": "xyz987qwe", "balance": 12.0}`) {
		t.Errorf("the copy is not its record's text moved: %s", out)
	}
	agenda := []byte("{\n  \"1\": {\"username\": \"AmaraOkafor\"},\n  \"2\": {\"username\": \"LiWei\"}\n}")
	out, n = worldCopies("Agenda", agenda, p, r)
	if n != 1 || !strings.Contains(string(out), `"3": {"username": "KemalSarkar"}`) {
		t.Errorf("agenda copies %d: %s", n, out)
	}
}
