package bm25

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"testing"
)

// sharedDir is the project's shared/apibank folder, relative to this package.
var sharedDir = filepath.Join("..", "..", "..", "shared", "apibank")

type rawDoc struct {
	Title    string `json:"title"`
	URL      string `json:"url"`
	Abstract string `json:"abstract"`
}

type searchDB struct {
	RawDocuments       []rawDoc            `json:"raw_documents"`
	TokenizedDocuments [][]string          `json:"tokenized_documents"`
	SampleQueries      map[string][]rawDoc `json:"sample_queries"`
}

// loadDB reads the SearchEngine database, skipping the test when the shared
// folder is not there.
func loadDB(tb testing.TB) *searchDB {
	tb.Helper()
	if _, err := os.Stat(sharedDir); err != nil {
		tb.Skipf("shared API-Bank data not found at %s (needs the repo's shared/apibank folder): %v", sharedDir, err)
	}
	b, err := os.ReadFile(filepath.Join(sharedDir, "init_database", "SearchEngine.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var db searchDB
	if err := json.Unmarshal(b, &db); err != nil {
		tb.Fatal(err)
	}
	if len(db.RawDocuments) != 73 || len(db.TokenizedDocuments) != 73 {
		tb.Fatalf("unexpected database size: %d raw, %d tokenized", len(db.RawDocuments), len(db.TokenizedDocuments))
	}
	return &db
}

func TestSampleQueries(t *testing.T) {
	db := loadDB(t)
	ix := New(db.TokenizedDocuments)
	if len(db.SampleQueries) != 5 {
		t.Fatalf("want 5 sample queries, have %d", len(db.SampleQueries))
	}
	for q, want := range db.SampleQueries {
		t.Run(q, func(t *testing.T) {
			top := ix.Top(QueryTokens(q), 2)
			var got []rawDoc
			for _, d := range top {
				got = append(got, db.RawDocuments[d])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Top(%q) = %v (%+v)\nwant %+v", q, top, got, want)
			}
		})
	}
}

func TestSearchEngineTop(t *testing.T) {
	db := loadDB(t)
	ix := New(db.TokenizedDocuments)
	tests := []struct {
		name  string
		query string
		want  []int
	}{
		// All scores 0: numpy's argsort order of 73 equal values starts 0, 51.
		{"no known token", "qwertyuiop zxcv", []int{0, 51}},
		{"empty query", "", []int{0, 51}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ix.Top(QueryTokens(tt.query), 2); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Top(%q, 2) = %v, want %v", tt.query, got, tt.want)
			}
		})
	}
	if got := ix.Top(nil, 0); len(got) != 0 {
		t.Errorf("Top(nil, 0) = %v", got)
	}
	if got := ix.Top(nil, 100); len(got) != 73 {
		t.Errorf("Top(nil, 100) has %d documents, want 73", len(got))
	}
}

// TestScoresNumpy compares scores bit for bit with rank_bm25's get_scores
// evaluated by numpy 1.24.2 (testdata/scores_numpy.json).
func TestScoresNumpy(t *testing.T) {
	db := loadDB(t)
	b, err := os.ReadFile("testdata/scores_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		AverageIdf string `json:"average_idf"`
		Avgdl      string
		Cases      []struct {
			Query  []string
			Scores []string
			Top5   []int
		}
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	ix := New(db.TokenizedDocuments)
	if want := parseHex(t, golden.Avgdl); ix.avgdl != want || want != 38.52054794520548 {
		t.Errorf("avgdl = %v, want %v", ix.avgdl, want)
	}
	if want := parseHex(t, golden.AverageIdf); ix.averageIdf != want {
		t.Errorf("average idf = %x, want %x", ix.averageIdf, want)
	}
	for _, c := range golden.Cases {
		got := ix.Scores(c.Query)
		for d, h := range c.Scores {
			if want := parseHex(t, h); got[d] != want {
				t.Errorf("query %q doc %d: score %x, want %x", c.Query, d, got[d], want)
			}
		}
		if top := ix.Top(c.Query, 5); !reflect.DeepEqual(top, c.Top5) {
			t.Errorf("query %q: top 5 %v, want %v", c.Query, top, c.Top5)
		}
	}
}

func parseHex(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFloorIDF checks the words whose raw idf is negative get
// epsilon * average idf (TOOLS.md lists them).
func TestFloorIDF(t *testing.T) {
	db := loadDB(t)
	ix := New(db.TokenizedDocuments)
	floor := Epsilon * ix.averageIdf
	floored := map[string]bool{"of": true, "-": true, "to": true, ",": true, "and": true, ".": true, "the": true}
	for w := range ix.idf {
		v, _ := ix.IDF(w)
		if floored[w] != (v == floor) {
			t.Errorf("idf(%q) = %v, floor %v", w, v, floor)
		}
	}
	if _, ok := ix.IDF("no-such-word"); ok {
		t.Error("unknown word reported as known")
	}
}

func TestScoresSmall(t *testing.T) {
	// "b" is in 3 of 4 documents: raw idf ln(1.5) - ln(3.5) < 0, floored.
	docs := [][]string{{"a", "b", "a"}, {"b", "c"}, {"b"}, {"d", "d", "d", "d"}}
	ix := New(docs)
	const n = 4.0
	avgdl := 10.0 / n
	rawIdf := func(df float64) float64 { return math.Log(n-df+0.5) - math.Log(df+0.5) }
	// Vocabulary in first-appearance order: a, b, c, d.
	avgIdf := (rawIdf(1) + rawIdf(3) + rawIdf(1) + rawIdf(1)) / 4
	idfB := Epsilon * avgIdf
	term := func(idf, tf, dl float64) float64 {
		return idf * (tf * (K1 + 1) / (tf + K1*(1-B+B*dl/avgdl)))
	}
	want := []float64{
		term(rawIdf(1), 2, 3) + term(idfB, 1, 3),
		term(idfB, 1, 2),
		term(idfB, 1, 1),
		0,
	}
	got := ix.Scores([]string{"a", "b", "zzz"})
	for d := range want {
		if math.Abs(got[d]-want[d]) > 1e-12 {
			t.Errorf("doc %d: score %v, want %v", d, got[d], want[d])
		}
	}
	// A repeated token counts twice.
	once, twice := ix.Scores([]string{"c"}), ix.Scores([]string{"c", "c"})
	for d := range once {
		if twice[d] != once[d]+once[d] {
			t.Errorf("doc %d: repeated token %v, want %v", d, twice[d], 2*once[d])
		}
	}
	if got := New(nil).Scores([]string{"a"}); len(got) != 0 {
		t.Errorf("empty index scores %v", got)
	}
	if got := New([][]string{{}, {}}).Top([]string{"a"}, 2); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("index without tokens: Top = %v", got)
	}
}

// TestPyLog checks the logarithm used for idf on arguments where Go's
// math.Log is off by one ulp from glibc (values measured with Python's
// math.log), and on one of glibc's own misrounded half-integers.
func TestPyLog(t *testing.T) {
	tests := []struct {
		x    float64
		want string
	}{
		{23.5, "0x1.941896fd2623bp+1"},
		{41.5, "0x1.dce385b073a87p+1"},
		{46.5, "0x1.eb732c6291e63p+1"},
		{49.5, "0x1.f373d726dabdbp+1"},
		{0.5, "-0x1.62e42fefa39efp-1"},
		{72.5, "0x1.1226484031b1ep+2"},
		{38437.5, "0x1.51d136cc06e70p+3"},
	}
	for _, tt := range tests {
		if got := pyLog(tt.x); got != parseHex(t, tt.want) {
			t.Errorf("pyLog(%v) = %x, want %s", tt.x, got, tt.want)
		}
	}
}

func TestConcurrentTop(t *testing.T) {
	db := loadDB(t)
	ix := New(db.TokenizedDocuments)
	want := ix.Top(QueryTokens("artificial intelligence in healthcare"), 2)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				if got := ix.Top(QueryTokens("artificial intelligence in healthcare"), 2); !reflect.DeepEqual(got, want) {
					t.Errorf("concurrent Top = %v, want %v", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkTop(b *testing.B) {
	db := loadDB(b)
	ix := New(db.TokenizedDocuments)
	q := QueryTokens("Artificial Intelligence in Healthcare")
	for b.Loop() {
		ix.Top(q, 2)
	}
}

func BenchmarkNew(b *testing.B) {
	db := loadDB(b)
	for b.Loop() {
		New(db.TokenizedDocuments)
	}
}
