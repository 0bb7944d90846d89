package bm25

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
)

func TestZZDiffArgsort(t *testing.T) {
	in := os.Getenv("BM25_DIFF_IN")
	if in == "" {
		t.Skip()
	}
	var raw [][]*float64
	b, _ := os.ReadFile(in)
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	out := make([][]int, len(raw))
	for i, c := range raw {
		v := make([]float64, len(c))
		for j, p := range c {
			if p == nil {
				v[j] = math.NaN()
			} else {
				v[j] = *p
			}
		}
		out[i] = Argsort(v)
	}
	b, _ = json.Marshal(out)
	os.WriteFile(os.Getenv("BM25_DIFF_OUT"), b, 0o644)
}

func TestZZDiffTok(t *testing.T) {
	in := os.Getenv("BM25_TOK_IN")
	if in == "" {
		t.Skip()
	}
	var cases []string
	b, _ := os.ReadFile(in)
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(cases))
	for i, c := range cases {
		out[i] = treebank([]rune(c))
		if out[i] == nil {
			out[i] = []string{}
		}
	}
	b, _ = json.Marshal(out)
	os.WriteFile(os.Getenv("BM25_TOK_OUT"), b, 0o644)
}

func TestZZKiller(t *testing.T) {
	outp := os.Getenv("BM25_KILL_OUT")
	if outp == "" {
		t.Skip()
	}
	var cases [][]float64
	var perms [][]int
	for _, n := range []int{40, 64, 73, 100, 200, 500, 1000, 3000} {
		for variant := 0; variant < 4; variant++ {
			gas := n
			val := make([]int, n)
			for i := range val {
				val[i] = gas
			}
			solid, cand := 0, -1
			less := func(x, y int) bool {
				if val[x] == gas && val[y] == gas {
					if x == cand {
						val[x] = solid
					} else {
						val[y] = solid
					}
					solid++
				}
				if val[x] == gas {
					cand = x
				} else if val[y] == gas {
					cand = y
				}
				return val[x] < val[y]
			}
			introArgsort(n, less, nil)
			v := make([]float64, n)
			for i, x := range val {
				switch variant {
				case 0:
					v[i] = float64(x)
				case 1:
					v[i] = float64(x / 2)
				case 2:
					v[i] = float64(x / 3)
				case 3:
					v[i] = float64(x % 5)
				}
			}
			h := 0
			p := introArgsort(n, func(a, b int) bool { return v[a] < v[b] }, &h)
			t.Logf("n=%d variant=%d solid=%d heapsorts=%d", n, variant, solid, h)
			cases = append(cases, v)
			perms = append(perms, p)
		}
	}
	b, _ := json.Marshal(cases)
	os.WriteFile(outp, b, 0o644)
	b, _ = json.Marshal(perms)
	os.WriteFile(outp+".go", b, 0o644)
}

func TestZZBM25(t *testing.T) {
	b, err := os.ReadFile("/tmp/bm25dev/bm_in.json")
	if err != nil || os.Getenv("BM25_BM") == "" {
		t.Skip()
	}
	var cs []struct {
		Docs    [][]string
		Queries [][]string
		AvgIdf  string `json:"avg_idf"`
		Res     []struct {
			Scores []string
			Top    []int
		}
	}
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	for ci, c := range cs {
		ix := New(c.Docs)
		ai, _ := strconv.ParseFloat(c.AvgIdf, 64)
		if ai != ix.averageIdf {
			t.Errorf("corpus %d avg idf %x vs %s", ci, ix.averageIdf, c.AvgIdf)
		}
		bad, badTop := 0, 0
		for qi, q := range c.Queries {
			got := ix.Scores(q)
			for d, h := range c.Res[qi].Scores {
				w, _ := strconv.ParseFloat(h, 64)
				if w != got[d] {
					bad++
					break
				}
			}
			top := ix.Top(q, 5)
			if fmt.Sprint(top) != fmt.Sprint(c.Res[qi].Top) {
				badTop++
			}
		}
		t.Logf("corpus %d (N=%d): %d queries, %d score mismatches, %d top mismatches", ci, len(c.Docs), len(c.Queries), bad, badTop)
	}
}
